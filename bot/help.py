"""/help, written from the registered command tree: every command and subcommand with its description
and options, as the bot has them, so the help can never fall behind the commands. Pages fit one
message each; the guide is linked by the DOCS_URL setting (never a repository path, which no member
can open), or not at all."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from discord import app_commands

from bot.limits import MAX_CONTENT, fit

LINE_LIMIT = 400  # one command's line: a long description or many options are cut, the page still fits
FOOT_ROOM = 120  # for the page's footer: which page and how to see the next
INTRO = ("**Quarterdeck** referees naval wargames in this channel: *Oak & Iron*, and Wooden Ships & Iron Men, "
         "Iron & Oak and Captain's Sea with `/ref`. New here? `/game create scenario: tutorial` plays a first game "
         "against the computer captain, with a hint for each step. What Quarterdeck keeps about you, and how to "
         "download or delete it: `/privacy show`.")
Node = app_commands.Command[Any, ..., Any] | app_commands.Group


def commands_of(tree: app_commands.CommandTree[Any]) -> list[Node]:
    """Every slash command and group, depth first, in the order the cogs register them."""
    out: list[Node] = []

    def walk(nodes: Iterable[Any]) -> None:
        for node in nodes:
            if isinstance(node, app_commands.Group):
                out.append(node)
                walk(node.commands)
            elif isinstance(node, app_commands.Command):
                out.append(node)

    walk(tree.get_commands())
    return out


def _usage(command: app_commands.Command[Any, ..., Any]) -> str:
    """`/move ship [seamanship] …`: the required options bare, the optional ones in brackets."""
    opts = [p.display_name if p.required else f"[{p.display_name}]" for p in command.parameters]
    return "`/" + " ".join([command.qualified_name, *opts]) + "`"


def _line(node: Node) -> str:
    if isinstance(node, app_commands.Group):
        return f"**/{node.qualified_name}**: {node.description}"
    indent = "• " if node.parent is not None else ""
    return fit(f"{indent}{_usage(node)}: {node.description}", LINE_LIMIT)


def _option(param: app_commands.Parameter) -> str:
    kind = {"string": "text", "integer": "whole number", "number": "number", "boolean": "True or False",
            "user": "a member", "role": "a role", "attachment": "a file"}.get(param.type.name, param.type.name)
    need = "required" if param.required else "optional"
    said = param.description if param.description.endswith((".", "?", ")")) else f"{param.description}."
    picks = f" One of: {', '.join(c.name for c in param.choices)}." if param.choices else ""
    return fit(f"  ◦ `{param.display_name}` ({kind}, {need}): {said}{picks}", LINE_LIMIT)


def detail_lines(node: Node) -> list[str]:
    """One command with each option explained, or a group with each of its commands so."""
    if isinstance(node, app_commands.Group):
        lines = [_line(node)]
        for sub in node.commands:
            lines += detail_lines(sub)
        return lines
    return [_line(node), *(_option(p) for p in node.parameters)]


# what no command's description can say: the buttons under the board
BUTTONS = ("Initiative: press **Choose initiative card** under the board for a private menu of your hand; the "
           "choice stays secret until the reveal. Re-rolls: the buttons under a roll.")


def overview_lines(tree: app_commands.CommandTree[Any]) -> list[str]:
    return [INTRO, BUTTONS, "One command's options in detail: `/help command: NAME`.",
            *(_line(n) for n in commands_of(tree))]


def pages(lines: Sequence[str], next_page: str, docs_url: str = "", limit: int = MAX_CONTENT) -> list[str]:
    """The lines in pages of whole lines, each page at most `limit` characters with its footer: the
    page's number, how to see the next (`next_page` formatted with its number), the guide's link."""
    link = f"\n📖 The full guide: <{docs_url}>" if docs_url else ""
    room = limit - FOOT_ROOM - len(link)  # DOCS_URL may be a few hundred characters: the link is never cut
    bodies: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = fit(line, LINE_LIMIT)
        if bodies[-1] and used + len(line) + 1 > room:
            bodies.append([])
            used = 0
        bodies[-1].append(line)
        used += len(line) + 1
    out = []
    for i, body in enumerate(bodies, 1):
        foot = "" if len(bodies) == 1 else f"\n*Page {i} of {len(bodies)}*" + (
            f": next, {next_page.format(i + 1)}" if i < len(bodies) else "")
        out.append(fit("\n".join(body) + foot + link, limit))
    return out


def find(tree: app_commands.CommandTree[Any], name: str) -> Node | None:
    """A command or group by its full name ("game create"), with or without the slash."""
    wanted = " ".join(name.strip().lstrip("/").split()).casefold()
    return next((n for n in commands_of(tree) if n.qualified_name.casefold() == wanted), None)


def help_pages(tree: app_commands.CommandTree[Any], command: str | None, docs_url: str = "") -> list[str]:
    """The pages of `/help` (every command), or of `/help command: NAME`; [] for a name the tree
    lacks."""
    if command is None or not command.strip():
        return pages(overview_lines(tree), "`/help page: {}`", docs_url)
    node = find(tree, command)
    if node is None:
        return []
    return pages(detail_lines(node), f"`/help command: {node.qualified_name} page: {{}}`", docs_url)
