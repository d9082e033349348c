"""The ``devicepilot`` command line: server, host, demo and run."""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from devicepilot import __version__
from shared.errors import DevicePilotError

log = logging.getLogger("devicepilot")

DEMO_TASKS = [
    "go to the guide",
    "open movies and play The Last Orbit",
    "switch to channel 5 and check the banner shows Melody TV",
    "turn subtitles on",
    "search for harbor and open the first result",
    "go home, press down twice then OK",
]

EXIT_PASSED, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
STATUS_EXIT = {"passed": EXIT_PASSED, "planned": EXIT_PASSED, "failed": EXIT_FAILED}


def _setup_logging(verbose: int, default: int = logging.WARNING) -> None:
    level = logging.DEBUG if verbose > 1 else logging.INFO if verbose == 1 else default
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", datefmt="%H:%M:%S")
    for noisy in ("werkzeug", "engineio", "socketio", "urllib3"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))


class Printer:
    """Human output of plans and steps, as they happen."""

    def __init__(self, stream: Any = sys.stdout) -> None:
        self.out = stream

    def line(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def plan(self, run: dict[str, Any]) -> None:
        plan = run.get("plan") or {}
        self.line(f"  plan ({run.get('planner')}): {plan.get('analysis', '')}")
        for step in plan.get("plan", []):
            params = ", ".join(f"{k}={v!r}" for k, v in step.get("params", {}).items())
            self.line(f"    {step['step']}. {step['command']}({params})  [{step.get('controller_type', '?')}]")
        for note in plan.get("notes", []):
            self.line(f"    note: {note}")

    def step(self, step: dict[str, Any]) -> None:
        mark = {"passed": "PASS", "failed": "FAIL", "error": "ERR "}.get(step["status"], step["status"])
        self.line(f"  [{mark}] {step['step']}. {step['command']} ({step['duration_ms']} ms): {step['message']}")

    def result(self, run: dict[str, Any]) -> None:
        self.line(f"  => {run['status'].upper()}: {run.get('message', '')}")


NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "llm_calls": 0}


def _json_run(run: dict[str, Any]) -> dict[str, Any]:
    plan = run.get("plan") or {"analysis": "", "feasible": False, "plan": []}
    return {
        "status": run["status"], "planner": run.get("planner"), "run_id": run["id"],
        "message": run.get("message", ""), "usage": {**NO_USAGE, **(run.get("usage") or {})},
        "plan": {"analysis": plan.get("analysis", ""), "feasible": plan.get("feasible", False),
                 "plan": plan.get("plan", []), "notes": plan.get("notes", [])},
        "steps": [{k: s.get(k) for k in ("step", "command", "params", "controller_type", "success", "message",
                                         "duration_ms", "screenshot", "status", "current_node")}
                  for s in run.get("steps", [])],
        "report": run.get("report"),
    }


# -- commands ---------------------------------------------------------------------------

def cmd_server(args: argparse.Namespace) -> int:
    """The lab server, on gunicorn (server/production.py); ``--dev`` serves with Werkzeug in this process."""
    from devicepilot.local import LOOPBACK_BINDS, ServerThread
    from server.app import create_app
    from shared.config import Settings

    settings = Settings.from_env()
    srv = create_app(settings)          # creates the database's tables, and the first admin below
    first = srv.users.ensure_admin()
    url = f"http://{args.bind if args.bind not in ('0.0.0.0', '::') else '127.0.0.1'}:{args.port}"
    print(f"devicepilot server {__version__} listening on {url}  (data: {settings.data_dir})", flush=True)
    print(f"hosts authenticate with the token in {settings.data_dir / 'host-token'} "
          "or DEVICEPILOT_HOST_TOKEN", flush=True)
    if first:
        from devicepilot.client import save_client_token

        path = save_client_token(settings.data_dir, first)
        print("first start: user 'admin' created. Its API token, shown this once:", flush=True)
        print(f"  {first}", flush=True)
        print(f"  (a CLI on this machine reads it from {path}; elsewhere set DEVICEPILOT_TOKEN. "
              "Add people with `devicepilot user add NAME --role viewer|tester|admin`.)", flush=True)
    if args.dev:
        http = ServerThread(srv, args.bind, args.port).start()
        _wait_for_signal()
        http.stop()
        return 0
    srv.db.engine.dispose()             # the worker process opens its own connections
    from server.production import ProductionServer, with_proxy

    def serve() -> Any:
        worker = create_app(Settings.from_env())
        guard = worker.extras.get("guard")
        if guard is not None and args.bind in LOOPBACK_BINDS:
            guard.trust_loopback_only()
        elif guard is not None and not guard.trusted_hosts:
            logging.getLogger(__name__).warning(
                "listening on %s with no DEVICEPILOT_TRUSTED_HOSTS: any Host header is accepted", args.bind)
        worker.runs.start()
        worker.extras["schedules"].start()
        return with_proxy(worker.app)

    ProductionServer(serve, args.bind, args.port).run()
    return 0


def cmd_host(args: argparse.Namespace) -> int:
    from host.agent import HostAgent
    from host.config import HostConfig
    from host.lab import Lab
    from shared.config import Secret, default_data_dir, read_or_create_token, token_file

    token = Secret(os.environ.get("DEVICEPILOT_HOST_TOKEN"))
    if not token:
        path = token_file(default_data_dir())
        if not path.exists():
            print(f"error: set DEVICEPILOT_HOST_TOKEN to the server's host token "
                  f"(the server keeps it in its data dir as 'host-token'; looked in {path})", file=sys.stderr)
            return EXIT_ERROR
        token = read_or_create_token(default_data_dir())
    lab = Lab.build(HostConfig.load(args.config))
    agent = HostAgent(lab, args.server, token)
    agent.start()
    print(f"host {lab.config.id} with {len(lab.runtimes)} device(s) dialing {args.server}", flush=True)
    try:
        _wait_for_signal()
    finally:
        agent.stop()
        lab.close()
    return 0


def _wait_for_signal() -> None:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    # Ctrl-C reaches the whole process group, Playwright's driver too: its closed pipe is
    # reported by asyncio while we shut down in order; nothing to act on
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)


def _client_for(args: argparse.Namespace) -> tuple[Any, Any]:
    """An API client, plus the local stack it runs against (None with --server)."""
    from devicepilot.client import ApiClient

    if args.server:
        return ApiClient(args.server), None
    from devicepilot.local import LocalStack

    stack = LocalStack.start(Path(args.config) if args.config else _demo())
    return ApiClient(stack.url, token=stack.token), stack


def _demo() -> Path:
    from host.config import DEMO_CONFIG

    return DEMO_CONFIG


def _run_task(client: Any, device: str, task: str, mode: str, printer: Printer | None,
              extra: dict[str, Any] | None = None, timeout: float = 600) -> dict[str, Any]:
    run = client.post("/api/runs", {"device": device, "task": task, "mode": mode, **(extra or {})})
    if printer is None:
        return client.follow(run["id"], lambda s: None, lambda r: None, timeout)
    final = client.follow(run["id"], printer.step, printer.plan, timeout)
    printer.result(final)
    return final


def _report(run: dict[str, Any], as_json: bool) -> int:
    """Print the run's outcome (one JSON object, or the report's path) and return the exit code."""
    if as_json:
        print(json.dumps(_json_run(run), indent=2))
    elif run.get("report"):
        print(f"report: {run['report']}")
    return STATUS_EXIT.get(run["status"], EXIT_ERROR)


def cmd_run(args: argparse.Namespace) -> int:
    printer = None if args.json else Printer()
    client, stack = _client_for(args)
    try:
        extra: dict[str, Any] = {"no_cache": True} if getattr(args, "no_cache", False) else {}
        if getattr(args, "yes", False):
            extra["confirm"] = True
        if printer:
            printer.line(f"task: {args.task}")
        run = _run_task(client, args.device, args.task, "plan" if args.plan_only else "run", printer, extra,
                        args.timeout)
        run = client.get(f"/api/runs/{run['id']}")
    finally:
        if stack:
            stack.stop()
    return _report(run, args.json)


def cmd_testcase(args: argparse.Namespace) -> int:
    """``devicepilot testcase save|run|list``: passed runs kept as YAML, run later with no planner."""
    client, stack = _client_for(args)
    client.http.headers["Accept"] = "application/json"  # the test-case endpoints answer YAML otherwise
    try:
        if args.testcase_command == "save":
            body = {"name": args.name} if args.name else {}
            saved = client.post(f"/api/runs/{args.run_id}/save-test", body)
            print(saved["yaml"] if args.yaml else f"saved test case {saved['name']}: {saved['path']}")
            return EXIT_PASSED
        if args.testcase_command == "list":
            cases = client.get("/api/testcases")
            if args.json:
                print(json.dumps(cases, indent=2))
            for case in [] if args.json else cases:
                print(f"{case['name']:40} {case['steps']:3} step(s)  {case['task']}")
            return EXIT_PASSED
        printer = None if args.json else Printer()
        body = {"device": args.device} if args.device else {}
        run = client.post(f"/api/testcases/{args.name}/run", body)
        if printer:
            printer.line(f"test case: {args.name} on {run['device_id']}")
            run = client.follow(run["id"], printer.step, printer.plan, args.timeout)
            printer.result(run)
        else:
            run = client.follow(run["id"], lambda s: None, lambda r: None, args.timeout)
        run = client.get(f"/api/runs/{run['id']}")
    finally:
        if stack:
            stack.stop()
    return _report(run, args.json)


def cmd_suite(args: argparse.Namespace) -> int:
    """``devicepilot suite FILE``: run a suite of tasks and test cases; JUnit and HTML reports for CI."""
    from devicepilot.suite import SuiteRunner, html_report, junit_xml, load_suite, parse_shard

    suite = load_suite(Path(args.file))
    index, count = parse_shard(args.shard)
    suite = suite.shard(index, count)
    printer = Printer()
    client, stack = _client_for(args)
    try:
        runner = SuiteRunner(client, printer.line, remote=bool(args.server))
        device = runner.pick_device(suite, args.device or "", args.model or "")
        shard = f", shard {index}/{count}" if count > 1 else ""
        printer.line(f"suite {suite.name}: {len(suite.tasks)} task(s) on {device}{shard}")
        result = runner.run(suite, device, args.retries)
    finally:
        if stack:
            stack.stop()
    base = args.server.rstrip("/") if args.server else ""
    if args.junit:
        Path(args.junit).write_text(junit_xml(result, base), encoding="utf-8")
    if args.html:
        Path(args.html).write_text(html_report(result, base), encoding="utf-8")
    from devicepilot.suite import Outcome

    printer.line(f"{suite.name}: " + ", ".join(f"{result.count(o)} {o.value}" for o in Outcome)
                 + f" in {result.seconds:.1f} s")
    return result.exit_code


def cmd_rule(args: argparse.Namespace) -> int:
    """``devicepilot rule add|list|show|delete``: named phrases ("tune to {n}") any task may use."""
    import yaml

    client, stack = _client_for(args)
    try:
        if args.rule_command == "add":
            if args.file:
                text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
                for rule in client.import_rules(text):
                    print(f"saved rule {rule['name']!r} ({rule.get('scope') or 'global'}) version {rule['version']}")
                return EXIT_PASSED
            if not args.name or bool(args.tasks) == bool(args.steps):
                print("error: give NAME and either --tasks TEXT or --steps FILE (YAML list of "
                      "{command, params, description}); or --file RULES.yaml", file=sys.stderr)
                return EXIT_ERROR
            body: dict[str, Any] = {"name": args.name, "scope": args.scope or None}
            if args.tasks:
                body["tasks"] = args.tasks
            else:
                body["steps"] = yaml.safe_load(Path(args.steps).read_text())
            if args.description:
                body["description"] = args.description
            rule = client.add_rule(body)
            print(f"saved rule {rule['name']!r} ({rule.get('scope') or 'global'}) version {rule['version']}")
            return EXIT_PASSED
        if args.rule_command == "list":
            rules = client.rules(args.scope)
            if args.json:
                print(json.dumps(rules, indent=2))
            elif args.yaml:
                print(yaml.safe_dump({"rules": [_rule_yaml(r) for r in rules]}, sort_keys=False), end="")
            for r in [] if args.json or args.yaml else rules:
                body_text = r.get("tasks") or f"{len(r.get('steps', []))} step(s)"
                print(f"{r['name']:32} {r.get('scope') or 'global':12} v{r['version']:<3} {body_text}")
            return EXIT_PASSED
        if args.rule_command == "show":
            shown = client.rule(args.name, args.scope, versions=args.versions)
            print(json.dumps(shown, indent=2) if args.json or args.versions
                  else yaml.safe_dump(_rule_yaml(shown), sort_keys=False), end="\n" if args.json else "")
            return EXIT_PASSED
        gone = client.delete_rule(args.name, args.scope)
        print(f"deleted rule {gone['name']!r} ({gone.get('scope') or 'global'})")
        return EXIT_PASSED
    finally:
        if stack:
            stack.stop()


def _rule_yaml(rule: dict[str, Any]) -> dict[str, Any]:
    keys = ("name", "scope", "description", "tasks", "steps")
    return {k: rule[k] for k in keys if rule.get(k)} | {"version": rule.get("version")}


def cmd_demo(args: argparse.Namespace) -> int:
    from devicepilot.local import LocalStack
    from server.reports import render_html

    printer = Printer()
    started = time.monotonic()
    if args.public and not args.serve:
        printer.line("note: --public only matters with --serve")
    stack = LocalStack.start(_demo(), port=args.port if args.serve else 0,
                             bind="0.0.0.0" if args.serve and args.public else "127.0.0.1")
    try:
        from devicepilot.client import ApiClient

        client = ApiClient(stack.url, token=stack.token)
        printer.line(f"devicepilot demo: server {stack.url}, device demo-web (StreamTV in headless Chromium)")
        runs = []
        tasks = args.task or DEMO_TASKS
        for i, task in enumerate(tasks, 1):
            printer.line(f"\n[{i}/{len(tasks)}] {task}")
            run = _run_task(client, "demo-web", task, "run", printer)
            runs.append(client.get(f"/api/runs/{run['id']}"))
        report = stack.server.files.reports / f"demo-{time.strftime('%Y%m%d-%H%M%S')}.html"
        stack.server.files.write_bytes(report, render_html(runs, "devicepilot demo").encode())
        passed = sum(r["status"] == "passed" for r in runs)
        printer.line(f"\n{passed}/{len(runs)} task(s) passed in {time.monotonic() - started:.1f}s")
        printer.line(f"report: {report}")
        if args.serve:
            if args.public:
                printer.line("\nWARNING: --public: the dashboard listens on every interface. Every request needs "
                             "a login; share the link below with no one.")
            else:
                printer.line("\nlocal only: the dashboard listens on 127.0.0.1 (use --public to open it to the "
                             "network, with logins).")
            printer.line(f"dashboard (this link logs you in once, for 15 minutes): {stack.login_url()}")
            printer.line("(Ctrl-C to stop)")
            _wait_for_signal()
        return EXIT_PASSED if passed == len(runs) else EXIT_FAILED
    finally:
        stack.stop()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="devicepilot", description="Plain-language test tasks on real devices.")
    p.add_argument("--version", action="version", version=f"devicepilot {__version__}")
    p.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("server", help="run the server (REST API, Socket.IO, dashboard)")
    s.add_argument("--bind", default=os.environ.get("DEVICEPILOT_BIND", "127.0.0.1"))
    s.add_argument("--port", type=int, default=int(os.environ.get("DEVICEPILOT_PORT", "5090")))
    s.add_argument("--dev", action="store_true",
                   help="serve with Werkzeug's development server in this process (debugging only)")
    s.set_defaults(func=cmd_server, log_default=logging.INFO)

    h = sub.add_parser("host", help="run a lab host that dials out to a server")
    h.add_argument("--server", required=True, help="server URL, e.g. http://lab-server:5090")
    h.add_argument("--config", required=True, help="host YAML config")
    h.set_defaults(func=cmd_host, log_default=logging.INFO)

    d = sub.add_parser("demo", help="run example tasks on the embedded StreamTV demo device")
    d.add_argument("--serve", action="store_true", help="keep the server (and dashboard) up afterwards")
    d.add_argument("--port", type=int, default=int(os.environ.get("DEVICEPILOT_PORT", "5090")))
    d.add_argument("--public", action="store_true", help="with --serve: listen on all interfaces")
    d.add_argument("--task", action="append", help="run this task instead of the examples (repeatable)")
    d.set_defaults(func=cmd_demo, log_default=logging.WARNING)

    r = sub.add_parser("run", help="plan and run one task")
    r.add_argument("task")
    r.add_argument("--device", required=True)
    r.add_argument("--server", help="server URL; without it, local mode with the demo device config")
    r.add_argument("--config", help="local mode: host YAML config (default: the demo)")
    r.add_argument("--plan-only", action="store_true", help="plan, do not run")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument("--no-cache", action="store_true", help="do not replay a cached plan")
    r.add_argument("--yes", action="store_true",
                   help="confirm: let the plan use destructive commands (clear data, uninstall, power off...)")
    r.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the run")
    r.set_defaults(func=cmd_run, log_default=logging.WARNING)

    su = sub.add_parser("suite", help="run a suite file of tasks and test cases (CI: JUnit, HTML, shards)")
    su.add_argument("file", help="the suite YAML (name, device or model, tasks, setup, teardown)")
    su.add_argument("--server", help="server URL; without it, local mode with the demo device config")
    su.add_argument("--config", help="local mode: host YAML config (default: the demo)")
    target = su.add_mutually_exclusive_group()
    target.add_argument("--device", help="run on this device (overrides the suite's device or model)")
    target.add_argument("--model", help="run on a free device of this model")
    su.add_argument("--junit", help="write JUnit XML here")
    su.add_argument("--html", help="write an HTML report here")
    su.add_argument("--shard", help="i/n: run only the i-th of n shards (deterministic, each task once)")
    su.add_argument("--retries", type=int, default=None,
                    help="re-run a task that ended error (infrastructure) up to N times; never a failure")
    su.set_defaults(func=cmd_suite, log_default=logging.WARNING)

    t = sub.add_parser("testcase", help="save a passed run as a test case, list them, run one (no planner)")
    tsub = t.add_subparsers(dest="testcase_command", required=True)
    ts = tsub.add_parser("save", help="save a passed run as a YAML test case")
    ts.add_argument("run_id")
    ts.add_argument("--name", help="test case name (default: from the task)")
    ts.add_argument("--yaml", action="store_true", help="print the YAML")
    tl = tsub.add_parser("list", help="list the saved test cases")
    tl.add_argument("--json", action="store_true", help="print JSON")
    tr = tsub.add_parser("run", help="run a saved test case exactly as saved")
    tr.add_argument("name")
    tr.add_argument("--device", help="device id (default: the device it was recorded on)")
    tr.add_argument("--json", action="store_true", help="print one JSON object")
    tr.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the run")
    for sp in (ts, tl, tr):
        sp.add_argument("--server", help="server URL; without it, local mode with the demo device config")
        sp.add_argument("--config", help="local mode: host YAML config (default: the demo)")
    t.set_defaults(func=cmd_testcase, log_default=logging.WARNING)

    from evals.cli import add_parser as add_eval_parser  # the generalisation corpus: evals/

    add_eval_parser(sub)
    _rule_parser(sub)
    from devicepilot.admin import add_parsers

    add_parsers(sub)
    from explore.cli import add_parser as add_explore_parser  # drafting a navigation tree: explore/

    add_explore_parser(sub)
    return p


def _rule_parser(sub: Any) -> None:
    rp = sub.add_parser("rule", help="named phrases tasks may use: add, list, show, delete")
    rsub = rp.add_subparsers(dest="rule_command", required=True)
    ra = rsub.add_parser("add", help="add a rule, or a new version of one")
    ra.add_argument("name", nargs="?", help='the phrase, with parameters in braces: "tune to {n}"')
    ra.add_argument("--tasks", help='its body as plain-language text: "switch to channel {n}"')
    ra.add_argument("--steps", help="its body as explicit steps: a YAML/JSON file (list of {command, params})")
    ra.add_argument("--description", help="what the rule is for")
    ra.add_argument("--file", help="import every rule of a YAML file (rules: [...]); - reads stdin")
    rl = rsub.add_parser("list", help="list the current rules")
    rl.add_argument("--json", action="store_true", help="print JSON")
    rl.add_argument("--yaml", action="store_true", help="print YAML (importable with rule add --file)")
    rs = rsub.add_parser("show", help="show one rule")
    rs.add_argument("name", help="its name or id")
    rs.add_argument("--json", action="store_true", help="print JSON")
    rs.add_argument("--versions", action="store_true", help="every version (JSON)")
    rd = rsub.add_parser("delete", help="delete a rule (its history is kept)")
    rd.add_argument("name", help="its name or id")
    for sp in (ra, rl, rs, rd):
        sp.add_argument("--scope", help="a user interface (default: global for add, any for the others)")
        sp.add_argument("--server", help="server URL; without it, local mode with the demo device config")
        sp.add_argument("--config", help="local mode: host YAML config (default: the demo)")
    rp.set_defaults(func=cmd_rule, log_default=logging.WARNING)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _setup_logging(args.verbose, args.log_default)
    try:
        return int(args.func(args))
    except DevicePilotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
