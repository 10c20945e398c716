"""Helpers for the tests of the OpenAPI document as a contract: validating real responses against the
schema the document declares for them (JSON Schema 2020-12 as OpenAPI 3.1 uses: every body with
jsonschema-rs, the first body of each kind also with python-jsonschema), and a
command chooser that plays Battle of Hoth games to the end in a few hundred commands."""
from __future__ import annotations

import random
from typing import Any

import jsonschema
import jsonschema_rs

JSON = "application/json"
PROBLEM = "application/problem+json"


class Contract:
    """The document's promise for each (method, path template, status, media type)."""

    def __init__(self, doc: dict[str, Any]):
        self.doc = doc
        self._validators: dict[tuple[str, str, str, str], Any] = {}
        #: (method, template, status) seen, for coverage assertions
        self.seen: set[tuple[str, str, int]] = set()

    def operation(self, method: str, template: str) -> dict[str, Any]:
        return self.doc["paths"][template][method.lower()]

    def schema_of(self, schema: dict[str, Any]) -> Any:
        root = {**schema, "components": self.doc["components"]}
        return jsonschema.Draft202012Validator(root)

    def check(self, method: str, template: str, response: Any) -> Any:
        """Assert that ``response`` is one the document declares for the operation; returns its body."""
        op = self.operation(method, template)
        status = str(response.status_code)
        assert status in op["responses"], (
            f"{method} {template} answered {status}, not declared ({sorted(op['responses'])}): {response.text[:300]}")
        declared = op["responses"][status].get("content", {})
        media = response.headers.get("content-type", "").split(";")[0].strip()
        assert media in declared, f"{method} {template} {status}: content-type {media!r}, declared {sorted(declared)}"
        self.seen.add((method.lower(), template, response.status_code))
        if media not in (JSON, PROBLEM):
            return None
        key = (method.lower(), template, status, media)
        body = response.json()
        root = {**declared[media]["schema"], "components": self.doc["components"]}
        validator = self._validators.get(key)
        if validator is None:
            # the first body of each kind also through the reference implementation (python-jsonschema)
            errors = sorted(self.schema_of(declared[media]["schema"]).iter_errors(body),
                            key=lambda e: list(e.absolute_path))
            assert not errors, (f"{method} {template} {status}: the body does not match the declared schema: "
                                + "; ".join(f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:3]))
            validator = self._validators[key] = jsonschema_rs.Draft202012Validator(root)
        errors_rs = list(validator.iter_errors(body))
        assert not errors_rs, (f"{method} {template} {status}: the body does not match the declared schema: "
                               + "; ".join(f"{e.instance_path}: {e.message[:300]}" for e in errors_rs[:3]))
        return body


# -- playing hoth to the end --------------------------------------------------------------------------
#: Command types in the order the chooser prefers them: attacks end games, ordering and moving set them up.
PREFERENCE = ("attack", "breakthrough", "order_unit", "move", "play_card", "retreat", "reroll")


def choose(rng: random.Random, commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal command, aggressively: a game of Battle of Hoth ends in about 250 commands."""
    by: dict[str, list[dict[str, Any]]] = {}
    for c in commands:
        by.setdefault(c["type"], []).append(c)
    for kind in PREFERENCE:
        if kind in by and (kind != "move" or rng.random() < 0.8) and (kind != "order_unit" or rng.random() < 0.9):
            return rng.choice(by[kind])
    return rng.choice(commands)


__all__ = ["Contract", "JSON", "PREFERENCE", "PROBLEM", "choose"]
