"""The OpenAPI document (``/schema/openapi.json``) and the docs page (``/schema``), DESIGN 8.

Litestar generates the paths and parameters from the route handlers; everything litestar cannot
express is put in this package and applied in one place (:func:`~service.openapi.document.postprocess`), so
that client generators (openapi-python-client, openapi-typescript) accept the document unchanged:

* **Components** come from msgspec's JSON-schema generation of the body types
  (:mod:`service.schemas`, the request structs) and of every registered ruleset's command and
  event unions, named ``<ruleset>_<Type>`` (titles equal the names, so no two share one; two
  types of one ruleset with the same class name keep the name for the command or event and add
  the module to the other: ``hoth_Reroll`` is the command, ``hoth_CardsReroll`` the card effect).
  A new ruleset appears by itself once the registry has it.
* **Tuples** (``prefixItems`` with ``items: false``) become ``items`` with ``minItems``/``maxItems``.
* **Redaction**: an event's private fields are optional and it has an optional ``redacted: true``
  (a caller who may not see them gets the payload without them); entries carry an optional
  ``commitment``.
* **Unions**: ``<ruleset>_Command`` is a ruleset's command union with the kernel's commands
  (``ready``, ``undo``, ``undo_accept``, ``undo_decline``), ``<ruleset>_Event`` its event payloads with
  the kernel's events (``oneOf`` with a ``discriminator`` on ``type``); ``Command`` is any of them (the
  body of ``POST /commands``). The answers that carry commands or events (:data:`schemas.PER_RULESET`:
  legal commands, command answers, the events page, the dry run) are one variant per ruleset
  (``hoth_LegalCommands`` lists ``hoth_Command``), their plain name the union of the variants
  discriminated by the answer's ``ruleset``: a generator resolves every command and event to its own
  ruleset's type, never to another ruleset's command of the same ``type``. ``CreateGameRequest`` is one
  variant per ruleset (its scenarios and options), discriminated by ``ruleset``.
* **Operations**: every status code each can return with its problem-details body, security
  (bearer seat tokens: required, optional, or public), tags, ``text/event-stream`` for the feed,
  ``image/svg+xml`` for the board, the ``X-Umpire-Degraded`` header.

The docs page is Swagger UI, served from the files of the ``swagger-ui-py`` wheel (Apache-2.0,
the licence is served beside them at ``/schema/static/LICENSE``): it works without internet.

The parts: ``json_schema`` (msgspec's schemas made generator-ready), ``rulesets`` (each ruleset's unions and
per-ruleset answers), ``request_bodies`` (POST /games and POST /campaigns), ``components`` (all of them),
``problems`` (problem details and error statuses), ``operations`` (what each operation says), ``paths`` (each
operation finished), ``links``, ``document`` (:func:`~service.openapi.document.postprocess`) and ``serving``
(the document and the docs page on the app).
"""

