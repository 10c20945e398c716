"""``umpire scenarios``: check the content and look at a scenario.

    umpire scenarios lint [--ruleset hoth|smoke] [--path DIR]    exit 0, or 1 with one line per problem
    umpire scenarios show ID [--path DIR] the scenario's board as text (Battle of Hoth)

``lint`` checks every ruleset's shipped content (hoth first), or one ruleset's content directory.

The service CLI (service/cli.py) adds every command of :data:`COMMANDS`.
"""
from __future__ import annotations

import sys

import click


@click.group("scenarios", help="Check the content files (scenarios, cards, campaigns) and show scenarios.")
def scenarios_group() -> None:
    pass


def _lint_hoth(path: str | None) -> tuple[list, str]:
    from scenarios.hoth import read_catalog

    catalog, problems = read_catalog(path)
    return problems, (f"ok: {len(catalog.scenarios)} scenarios, {len(catalog.cards)} cards, "
                      f"{len(catalog.campaigns)} campaigns")


def _lint_smoke(path: str | None) -> tuple[list, str]:
    from scenarios.smoke import read_content

    content, problems = read_content(path)
    return problems, (f"ok (smoke): {len(content.battles)} battles, {len(content.armies)} armies, "
                      f"{len(content.profiles)} unit profiles, {len(content.boards)} action boards")


LINTERS = {"hoth": _lint_hoth, "smoke": _lint_smoke}


@scenarios_group.command("lint", help="Check all content; print one line per problem.")
@click.option("--path", "path", type=click.Path(file_okay=False), default=None,
              help="Content directory (default: the shipped content of every ruleset).")
@click.option("--ruleset", "ruleset", type=click.Choice(sorted(LINTERS)), default=None,
              help="Whose content (default: every ruleset; hoth when --path is given).")
def lint_cmd(path: str | None, ruleset: str | None) -> None:
    names = [ruleset] if ruleset else (["hoth"] if path else list(LINTERS))
    problems: list = []
    oks: list[str] = []
    for name in names:
        found, ok = LINTERS[name](path)
        problems += found
        if not found:
            oks.append(ok)
    for p in problems:
        click.echo(str(p))
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)
    for line in oks:
        click.echo(line)


@scenarios_group.command("show", help="Print a scenario's board as text (rows, terrain, units).")
@click.argument("scenario_id")
@click.option("--path", "path", type=click.Path(file_okay=False), default=None,
              help="Content directory (default: the shipped Battle of Hoth content).")
def show_cmd(scenario_id: str, path: str | None) -> None:
    from scenarios.hoth import read_catalog
    from scenarios.hoth.text import render

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
