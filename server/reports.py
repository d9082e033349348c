"""Run reports: HTML (self-contained, screenshots inlined), JSON and JUnit XML."""
from __future__ import annotations

import base64
import html
import json
import logging
from pathlib import Path
from typing import Any, Iterable
from xml.etree import ElementTree as ET

from shared.screenshots import ImageFormat, sniff

log = logging.getLogger(__name__)

_CSS = """
body{font:15px/1.45 system-ui,'DejaVu Sans',sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header{background:#151a2d;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}
main{padding:20px 28px;max-width:1300px}
.run{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;margin:0 0 24px;padding:18px 22px}
.run h2{margin:0 0 6px;font-size:18px}.meta{color:#596079;font-size:13px}
.badge{display:inline-block;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:700;
 text-transform:uppercase;color:#fff;background:#596079}
.passed{background:#1f8a4c}.failed{background:#c0392b}.error{background:#8e44ad}.infeasible{background:#b9770e}
.planned{background:#2e6fd8}
table{border-collapse:collapse;width:100%;margin-top:12px}td,th{border-top:1px solid #e3e5ea;padding:8px;
 vertical-align:top;text-align:left}th{font-size:12px;color:#596079;text-transform:uppercase}
code{background:#eef0f4;border-radius:4px;padding:1px 5px;font-size:13px}
img.shot{width:320px;border-radius:6px;border:1px solid #d5d8df;display:block}
.notes{color:#8a5a00;font-size:13px}.analysis{font-style:italic;color:#3d4460}
"""


def _img(path: str | None, embed: bool) -> str:
    """A step's screenshot: referenced as a file (the stored report, next to ``runs/``), or embedded once."""
    if not path:
        return ""
    shot = Path(path)
    if not embed:   # reports/<id>.html and runs/<id>/step-N.png share the data dir (and /api/files/)
        ref = html.escape(f"../runs/{shot.parent.name}/{shot.name}")
        return f'<a href="{ref}"><img class="shot" alt="screenshot" loading="lazy" src="{ref}"></a>'
    try:
        data = shot.read_bytes()
    except OSError:
        return '<span class="meta">(screenshot missing)</span>'
    kind = (sniff(data) or ImageFormat.PNG).mime
    return f'<img class="shot" alt="screenshot" src="data:{kind};base64,{base64.b64encode(data).decode()}">'


def _params(params: dict[str, Any]) -> str:
    return html.escape(", ".join(f"{k}={v!r}" for k, v in (params or {}).items()))


def render_run(run: dict[str, Any], embed: bool = True) -> str:
    e = html.escape
    plan = run.get("plan") or {}
    usage = run.get("usage") or {}
    rows = []
    for st in run.get("steps") or []:
        rows.append(
            f"<tr><td>{st['step']}</td><td><code>{e(st['command'])}</code><br><span class=meta>"
            f"{_params(st.get('params'))}</span><br>{e(st.get('description') or '')}</td>"
            f"<td>{e(st.get('controller_type') or '')}</td>"
            f"<td><span class='badge {e(st['status'])}'>{e(st['status'])}</span><br>{e(st.get('message') or '')}</td>"
            f"<td>{st.get('duration_ms', 0)} ms</td><td>{_img(st.get('screenshot'), embed)}</td></tr>")
    notes = "".join(f"<li>{e(n)}</li>" for n in plan.get("notes") or [])
    usage_text = (", ".join(f"{k.replace('_', ' ')} {v}" for k, v in usage.items())
                  if usage.get("llm_calls") else "no LLM call")
    return f"""<section class="run" id="run-{e(run['id'])}">
<h2>{e(run['task'])} <span class="badge {e(run['status'])}">{e(run['status'])}</span></h2>
<div class="meta">run {e(run['id'])} · device {e(run['device_id'])} · planner {e(str(run.get('planner')))}
 · created {e(str(run.get('created_at')))} · finished {e(str(run.get('finished_at')))} · {e(usage_text)}</div>
<p class="analysis">{e(plan.get('analysis') or '')}</p>
<p>{e(run.get('message') or '')}</p>
{f'<ul class="notes">{notes}</ul>' if notes else ''}
<table><tr><th>#</th><th>Step</th><th>Controller</th><th>Result</th><th>Time</th><th>Screenshot</th></tr>
{''.join(rows) or '<tr><td colspan=6 class=meta>no step was executed</td></tr>'}</table></section>"""


def render_html(runs: Iterable[dict[str, Any]], title: str = "devicepilot report", embed: bool = True) -> str:
    """The runs as one page; *embed* puts each screenshot in it once (a single file to send), else it links them."""
    runs = list(runs)
    counts: dict[str, int] = {}
    for r in runs:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    summary = " · ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    body = "".join(render_run(r, embed) for r in runs)
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>{html.escape(title)}</title>
<style>{_CSS}</style></head><body><header><h1>{html.escape(title)}</h1><div>{html.escape(summary)}</div></header>
<main>{body}</main></body></html>"""


def render_json(run: dict[str, Any]) -> str:
    return json.dumps(run, indent=2, default=str)


def render_junit(runs: Iterable[dict[str, Any]], suite: str = "devicepilot") -> str:
    runs = list(runs)
    root = ET.Element("testsuite", name=suite, tests=str(len(runs)))
    failures = errors = 0
    total = 0.0
    for run in runs:
        seconds = sum(st.get("duration_ms", 0) for st in run.get("steps") or []) / 1000
        total += seconds
        case = ET.SubElement(root, "testcase", classname=f"{suite}.{run['device_id']}", name=run["task"],
                             time=f"{seconds:.3f}")
        status = run["status"]
        if status == "failed":
            failures += 1
            ET.SubElement(case, "failure", message=run.get("message") or "failed").text = run.get("message")
        elif status in ("error", "infeasible"):
            errors += 1
            ET.SubElement(case, "error", message=run.get("message") or status).text = run.get("message")
        lines = [f"{st['step']}. {st['command']} {st.get('params')}: {st['status']} - {st.get('message')}"
                 for st in run.get("steps") or []]
        ET.SubElement(case, "system-out").text = "\n".join(lines)
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    root.set("time", f"{total:.3f}")
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def write_run_report(run: dict[str, Any], files: Any) -> Path:
    """Write the run's HTML report under the data dir's reports folder."""
    path = files.reports / f"{run['id']}.html"
    files.write_bytes(path, render_html([run], title=f"devicepilot run {run['id']}", embed=False).encode())
    return path
