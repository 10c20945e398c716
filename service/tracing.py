"""OpenTelemetry traces of the service (DESIGN 16), off unless configured.

On when ``UMPIRE_OTEL_ENDPOINT`` (an OTLP/HTTP endpoint, e.g. ``http://collector:4318``) or one of the
standard variables ``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or
``OTEL_TRACES_EXPORTER`` (``otlp`` or ``console``) is set: :func:`setup_from_env` then installs the SDK's
tracer provider with a batch span processor. The OTLP exporter is the optional extra ``umpire[otlp]``
(``opentelemetry-exporter-otlp-proto-http``, which brings protobuf); without it an OTLP setting is logged
as unusable and traces stay off. The standard ``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES`` and
``OTEL_TRACES_SAMPLER`` apply as the SDK reads them.

What is traced: one server span per HTTP request (the ASGI middleware of
``opentelemetry-instrumentation-asgi``, the one litestar's OpenTelemetry plugin uses: the plugin itself
would not see the game commands, which the command path answers in front of litestar's router), named
by the route with ids folded (``POST /games/{id}/commands``), with ``traceparent`` propagation; inside
it, child spans ``umpire.decide`` (the ruleset's decision), ``umpire.append`` (the store's append, the
group commit's wait included) and ``umpire.hand_over`` (the events handed to the projector). When off,
the wrappers cost one flag test and the ASGI app is not wrapped.
"""
from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from typing import Any

from opentelemetry import trace

from .metrics import route_of

log = logging.getLogger("umpire.tracing")

ENV_ENDPOINT = "UMPIRE_OTEL_ENDPOINT"
STANDARD = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER")
SERVICE_NAME = "umpire"

#: True once a tracer provider is installed (:func:`enable`): the spans of the command path are made.
ENABLED = False
_tracer: Any = trace.get_tracer("umpire")


def enable(provider: Any) -> None:
    """Trace with ``provider`` (an SDK ``TracerProvider``: :func:`setup_from_env`, or a test's)."""
    global ENABLED, _tracer
    _tracer = provider.get_tracer("umpire")
    ENABLED = True
    _providers.append(provider)


_providers: list[Any] = []


def disable() -> None:
    """Stop making spans (apps built from now on are not wrapped); the providers are shut down."""
    global ENABLED, _tracer
    ENABLED = False
    _tracer = trace.get_tracer("umpire")
    while _providers:
        _providers.pop().shutdown()


def configured(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    return bool(env.get(ENV_ENDPOINT)) or any(env.get(k) and env.get(k) != "none" for k in STANDARD)


def setup_from_env() -> bool:
    """Install the SDK's tracer provider when the environment asks for traces (once per process)."""
    if ENABLED or not configured():
        return ENABLED
    from opentelemetry.sdk.resources import (
        Resource,  # cold path: traces, only when configured
    )
    from opentelemetry.sdk.trace import (
        TracerProvider,  # cold path: traces, only when configured
    )
    from opentelemetry.sdk.trace.export import (  # cold path: traces, only when configured
        BatchSpanProcessor,
        ConsoleSpanExporter,
    )

    kind = (os.environ.get("OTEL_TRACES_EXPORTER") or "otlp").strip().lower()
    if kind == "console":
        exporter: Any = ConsoleSpanExporter()
    else:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
                OTLPSpanExporter,  # cold path: traces, only when configured
            )
        except ImportError:
            log.warning("traces: an OTLP endpoint is set but the OTLP exporter is not installed "
                        "(pip install 'umpire[otlp]'); traces stay off")
            return False
        endpoint = os.environ.get(ENV_ENDPOINT)
        exporter = OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces") if endpoint else OTLPSpanExporter()
    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or SERVICE_NAME})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    enable(provider)
    return True


def traced(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A child span ``name`` around each call (when tracing is on)."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any, **kw: Any) -> Any:
            if not ENABLED:
                return fn(*args, **kw)
            with _tracer.start_as_current_span(name):
                return fn(*args, **kw)

        return run

    return wrap


def traced_steps(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a command's steps (``GameService.run_steps``, a generator of appends): a child span
    ``umpire.append`` from each append asked to its result (when tracing is on)."""

    @functools.wraps(fn)
    def run(*args: Any, **kw: Any) -> Any:
        steps = fn(*args, **kw)
        if not ENABLED:
            return (yield from steps)
        try:
            call = next(steps)
            while True:
                span = _tracer.start_span("umpire.append")
                try:
                    res = yield call
                except BaseException as exc:
                    span.record_exception(exc)
                    span.end()
                    call = steps.throw(exc)
                else:
                    span.end()
                    call = steps.send(res)
        except StopIteration as stop:
            return stop.value

    return run


def _span_details(scope: Any) -> tuple[str, dict[str, Any]]:
    route = route_of(scope.get("path", ""))
    return f"{scope.get('method', 'HTTP')} {route}", {"http.route": route}


def asgi(app: Any) -> Any:
    """``app`` with a server span per request when tracing is on, else ``app`` itself."""
    if not ENABLED:
        return app
    from opentelemetry.instrumentation.asgi import (
        OpenTelemetryMiddleware,  # cold path: traces, only when configured
    )

    return OpenTelemetryMiddleware(app, default_span_details=_span_details, tracer=_tracer,
                                   exclude_spans=["receive", "send"])


__all__ = ["ENABLED", "asgi", "configured", "disable", "enable", "setup_from_env", "traced", "traced_steps"]
