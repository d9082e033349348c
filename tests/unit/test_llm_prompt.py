"""The planning prompt: what it holds, and how a large context is cut down to the task."""
from __future__ import annotations

from server.llm.prompt import PromptBuilder, build_messages, plan_schema, rank_commands
from shared.plan import MAX_STEPS
from tests.fakes.device_context import streamtv_context, synthetic_context


def test_prompt_holds_task_node_nodes_commands_verifications_rules_and_shape() -> None:
    ctx = streamtv_context(current_node="home")
    system, user = build_messages("switch to channel 5 and check the banner shows Melody TV", ctx)
    assert system["role"] == "system" and user["role"] == "user"
    s, u = system["content"], user["content"]
    assert '{"analysis":' in s and '"feasible": true' in s and '"plan": [{"step": 1, "command":' in s
    assert "Use only the commands listed" in s and "verification right after the action" in s
    assert f"At most {MAX_STEPS} steps" in s
    assert u.startswith("Task: switch to channel 5 and check the banner shows Melody TV")
    assert "Current screen: home" in u
    for node in ctx.nodes:
        assert f"\n- {node}" in u
    assert "- goto(navigation): Navigate to a screen" in u and "    node: string, required" in u
    assert "- press_key(remote): Press a remote-control key" in u
    assert "    repeat: int, default 1, range 1..50" in u and "one of UP, DOWN" in u
    verifications = u.split("Verifications:")[1]
    assert "- wait_for_element(verification):" in verifications
    assert "- press_key(" not in verifications
    assert "banner #channel-banner" in u  # elements with their selectors


def test_a_small_context_is_sent_whole() -> None:
    ctx = streamtv_context()
    prompt = PromptBuilder().build("go home", ctx)
    assert {c.name for c in prompt.commands} == set(ctx.commands)
    assert "not relevant to this task" not in prompt.messages[1]["content"]


def test_a_large_context_is_ranked_to_about_20_keeping_named_commands() -> None:
    ctx = synthetic_context(100, 60)
    task = "use rotate_bluetooth_49 then press the OK key and check the text Welcome appears"
    prompt = PromptBuilder(max_commands=20).build(task, ctx)
    names = [c.name for c in prompt.commands]
    assert 20 <= len(names) <= 21
    assert "rotate_bluetooth_49" in names                  # named by the task: never dropped
    assert "goto" in names                                 # navigation: always there
    assert {"press_key", "waitForTextToAppear"} <= set(names)  # relevant by words
    assert f"({60 - len(names)} other commands not relevant to this task" in prompt.messages[1]["content"]
    assert set(prompt.schema["properties"]["plan"]["items"]["properties"]["command"]["enum"]) == set(names)


def test_rank_commands_keeps_every_command_the_task_names_even_past_the_limit() -> None:
    ctx = synthetic_context(10, 60)
    all_specs = list(ctx.commands.values())
    named = [s.name for s in all_specs[:8]]
    chosen = rank_commands("run " + ", ".join(named), all_specs, limit=5)
    assert set(named) <= {c.name for c in chosen}


def test_elements_of_a_large_tree_are_listed_for_the_screens_the_task_is_about() -> None:
    ctx = synthetic_context(100, 10, elements_per_node=6)
    user = PromptBuilder().build("open screen 42 and select item 3", ctx).messages[1]["content"]
    elements = user.split("Elements on screens")[1].split("\n\n")[0]
    assert "- screen_42:" in elements and len(elements.strip().splitlines()) <= 9


def test_schema_lists_command_names() -> None:
    schema = plan_schema(["goto", "press_key"], max_steps=5)
    assert schema["required"] == ["analysis", "feasible", "plan"]
    assert schema["properties"]["plan"]["maxItems"] == 5
    assert schema["properties"]["plan"]["items"]["properties"]["command"]["enum"] == ["goto", "press_key"]


def test_the_prompt_shows_the_live_screen_most_relevant_first() -> None:
    from dataclasses import replace

    from shared.screen import ScreenObservation, UIElement

    screen = ScreenObservation("web", "http://app/todos", "Todos", tuple(
        [UIElement("link", name=f"Filler {i}") for i in range(80)]
        + [UIElement("textbox", placeholder="What needs to be done?", hint="new todo"),
           UIElement("button", hint="destroy", container="buy milk", hidden=True),
           UIElement("combobox", name="Language", options=("English", "French"))]))
    from tests.fakes.device_context import streamtv_context
    from server.llm.prompt import PromptBuilder

    ctx = replace(streamtv_context(), screen=screen)
    for template in ("detailed", "compact"):
        text = PromptBuilder().build("delete buy milk and choose French in language", ctx,
                                     template=template).messages[-1]["content"]
        assert 'button "destroy" row "buy milk" shown on hover' in text
        assert 'combobox "Language" options: English, French' in text
        assert "more elements not shown" in text
