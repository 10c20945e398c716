"""``umpire scenarios``: check the content and look at a scenario.

    umpire scenarios lint [--ruleset R] [--path DIR]   exit 0, or 1 with one line per problem
    umpire scenarios show ID [--path DIR]              a Battle of Hoth scenario's board as text

``lint`` is generic over the rulesets: it checks the content of every registered ruleset whose content
package (``scenarios.<ruleset id>``, see scenarios/content.py) exports
``lint(path=None) -> list[Problem]``; an optional ``summary(path=None) -> str`` says what was checked.
The service CLI (service/cli.py) adds every command of :data:`COMMANDS`.
"""
from __future__ import annotations

import sys
from types import ModuleType

import click
from domain.kernel import registry
from scenarios import content
from scenarios.hoth import read_catalog
from scenarios.hoth.text import render


def linted_rulesets() -> dict[str, ModuleType]:
    """Ruleset id -> its content package, for every registered ruleset whose package exports ``lint``."""
    out: dict[str, ModuleType] = {}
    for rs in registry.all_rulesets():
        mod = content.package(rs.id)
        if mod is not None and callable(getattr(mod, "lint", None)):
            out[rs.id] = mod
    return out


@click.group("scenarios", help="Check the content files (scenarios, cards, campaigns) and show scenarios.")
def scenarios_group() -> None:
    pass


@scenarios_group.command("lint", help="Check the content of every ruleset (or of one); print one line per problem.")
@click.option("--ruleset", "ruleset", default=None, help="Only this ruleset's content (required with --path).")
@click.option("--path", "path", type=click.Path(file_okay=False), default=None,
              help="Another content directory of --ruleset (same layout as the shipped one).")
def lint_cmd(ruleset: str | None, path: str | None) -> None:
    found = linted_rulesets()
    if ruleset is not None and ruleset not in found:
        raise click.BadParameter(f"{ruleset!r} has no content to check (rulesets with content: "
                                 f"{', '.join(sorted(found)) or 'none'}).", param_hint="--ruleset")
    if path is not None and ruleset is None:
        raise click.UsageError(f"--path needs --ruleset (one of: {', '.join(sorted(found))}): whose content is it?")
    total = 0
    oks = []
    for rid in [ruleset] if ruleset is not None else sorted(found):
        mod = found[rid]  # type: ignore[index]
        problems = mod.lint(path)
        for p in problems:
            click.echo(str(p))
        total += len(problems)
        if not problems:
            summary = getattr(mod, "summary", None)
            oks.append(f"ok: {rid}" + (f": {summary(path)}" if callable(summary) else ""))
    if total:
        click.echo(f"{total} problem(s)", err=True)
        sys.exit(1)
    for line in oks:
        click.echo(line)


@scenarios_group.command("show", help="Print a scenario's board as text (rows, terrain, units).")
@click.argument("scenario_id")
@click.option("--path", "path", type=click.Path(file_okay=False), default=None,
              help="Content directory (default: the shipped Battle of Hoth content).")
def show_cmd(scenario_id: str, path: str | None) -> None:
    catalog, problems = read_catalog(path)
    s = catalog.scenarios.get(scenario_id)
    if s is None:
        known = ", ".join(sorted(catalog.scenarios)) or "none"
        click.echo(f"umpire: error: no scenario {scenario_id!r} (known: {known})", err=True)
        sys.exit(1)
    click.echo(render(s))
    mine = [p for p in problems if p.file == catalog.sources.get(scenario_id)]
    for p in mine:
        click.echo(f"warning: {p}", err=True)


COMMANDS = [scenarios_group]
