"""``umpire scenarios``: check the content and look at a scenario.

    umpire scenarios lint [--path DIR]    exit 0, or 1 with one line per problem
    umpire scenarios show ID [--path DIR] the scenario's board as text

The service CLI (service/cli.py) adds every command of :data:`COMMANDS`.
"""
from __future__ import annotations

import sys

import click


@click.group("scenarios", help="Check the content files (scenarios, cards, campaigns) and show scenarios.")
def scenarios_group() -> None:
    pass


@scenarios_group.command("lint", help="Check all content; print one line per problem.")
@click.option("--path", "path", type=click.Path(file_okay=False), default=None,
              help="Content directory (default: the shipped Battle of Hoth content).")
def lint_cmd(path: str | None) -> None:
    from scenarios.hoth import read_catalog

    catalog, problems = read_catalog(path)
    for p in problems:
        click.echo(str(p))
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)
    click.echo(f"ok: {len(catalog.scenarios)} scenarios, {len(catalog.cards)} cards, "
               f"{len(catalog.campaigns)} campaigns")


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
