/**
 * Distributed tracing (issue 18), off unless an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the standard variables;
 * OTEL_SDK_DISABLED=true turns it off again). Each process's start.ts calls startTracing first,
 * before express, the HTTP clients or amqplib are loaded, so that the HTTP instrumentation sees
 * them: incoming requests continue the caller's trace (W3C traceparent), outgoing ones (the
 * gateway's proxy, the catalog snapshot, S3) carry it on. Events carry it in their envelope and
 * AMQP headers (messaging/events.ts, bus.ts), mails in their record (notification).
 *
 * This module must not import anything of the platform that loads express or amqplib.
 */
// The SDK is loaded only when tracing is on: loading it costs each process about a third of its
// start-up (1–1.5 s on the busy 2-CPU machine, six processes at once in `make run`).
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as InstrumentationHttp from '@opentelemetry/instrumentation-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';

/** Probes and metrics are not worth a trace each. */
const UNTRACED = /^\/(?:health|ready|metrics)(?:\?|$)/;

export interface Tracing {
  shutdown(): Promise<void>;
}

/** Starts exporting this process's spans when an endpoint is configured; null otherwise. */
export function startTracing(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
): Tracing | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return null;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof Instrumentation;
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof InstrumentationHttp;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof TraceNode;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || service }),
    // the exporter reads the endpoint, headers and timeout from the standard variables
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // the global tracer, AsyncLocalStorage context and the W3C trace-context propagator
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? ''),
      }),
    ],
  });
  const flush = () => void provider.shutdown().catch(() => undefined);
  process.once('beforeExit', flush);
  return provider;
}
