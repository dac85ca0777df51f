import { ScrollTable } from "@/components/ui/scroll-table";
import { InlineText } from "./inline-text";
import { fieldRows, refName, resolve, typeLabel, type Components, type JsonSchema } from "./schema";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  /** OpenAPI 3.1 webhooks: what this service POSTs to your endpoints, keyed by event kind. */
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Components };
}

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

function MethodBadge({ method }: { method: string }) {
  return (
    <span className={`inline-block w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? "bg-slate-100"}`}>
      {method}
    </span>
  );
}

function FieldTable({ schema, components }: { schema: JsonSchema; components: Components }) {
  const rows = fieldRows(schema, components);
  if (rows.length === 0) return <p className="text-sm text-slate-600">{typeLabel(schema, components)}</p>;
  return (
    // On a phone each field stacks (name and type, then its description) instead of a three-column row; from sm up a
    // table, which scrolls in place when a long type needs it.
    <ScrollTable label="Fields">
      <table className="block w-full text-left text-sm sm:table">
        <tbody className="block divide-y divide-slate-100 sm:table-row-group">
          {rows.map((r) => (
            <tr key={r.name} className="block py-2 align-top sm:table-row sm:py-0">
              <td className="inline sm:table-cell sm:py-2 sm:pr-4 sm:whitespace-nowrap">
                <code className="font-mono text-[13px] font-semibold text-slate-900">{r.name}</code>
                {r.required ? <span className="ml-2 text-xs font-medium text-rose-700">required</span> : null}
              </td>
              <td className="ml-2 inline font-mono text-xs break-all text-slate-500 sm:ml-0 sm:table-cell sm:py-2 sm:pr-4 sm:break-normal">{r.type}</td>
              <td className="mt-1 block text-slate-700 sm:mt-0 sm:table-cell sm:py-2">
                <InlineText text={r.description} />
                {r.constraints.length > 0 ? <span className="ml-1 text-xs text-slate-500">({r.constraints.join(", ")})</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function SchemaLink({ schema }: { schema?: JsonSchema }) {
  if (!schema?.$ref) return null;
  const name = refName(schema.$ref);
  return (
    <a href={`#schema-${name}`} className="font-mono text-xs text-sky-700 hover:underline">
      {name}
    </a>
  );
}

function bodySchemas(schema: JsonSchema, components: Components): JsonSchema[] {
  const resolved = resolve(schema, components);
  return resolved.anyOf ?? resolved.oneOf ?? [schema];
}

function OperationSection({
  path,
  method,
  op,
  components,
  webhook = false,
}: {
  path: string;
  method: string;
  op: Operation;
  components: Components;
  webhook?: boolean;
}) {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  return (
    <section id={op.operationId} className="scroll-mt-6 border-t border-slate-200 py-8">
      <h3 className="text-lg font-semibold text-slate-900">{op.summary}</h3>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <MethodBadge method={method} />
        {webhook ? (
          <code className="min-w-0 font-mono text-sm break-all text-slate-800">{path} → your endpoint</code>
        ) : (
          <code className="min-w-0 font-mono text-sm break-all text-slate-800">/api/v1{path}</code>
        )}
      </div>
      {op.description ? (
        <p className="mt-3 max-w-3xl text-sm leading-6 text-slate-700">
          <InlineText text={op.description} />
        </p>
      ) : null}
      {op.parameters?.length ? (
        <div className="mt-5">
          <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Parameters</h4>
          <ScrollTable label="Parameters" className="mt-2">
          <table className="w-full text-left text-sm">
            <tbody className="divide-y divide-slate-100">
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="align-top">
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <code className="font-mono text-[13px] font-semibold">{p.name}</code>
                    <span className="ml-2 text-xs text-slate-500">{p.in}</span>
                    {p.required ? <span className="ml-2 text-xs font-medium text-rose-700">required</span> : null}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs text-slate-500">{p.schema ? typeLabel(p.schema, components) : ""}</td>
                  <td className="py-2 text-slate-700">
                    <InlineText text={p.description ?? p.schema?.description ?? ""} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </ScrollTable>
        </div>
      ) : null}
      {body ? (
        <div className="mt-5">
          <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Request body</h4>
          {bodySchemas(body, components).map((s, i) => (
            <div key={i} className="mt-2">
              {i > 0 ? <p className="my-2 text-xs font-medium text-slate-500">or</p> : null}
              <SchemaLink schema={s} />
              <FieldTable schema={s} components={components} />
            </div>
          ))}
        </div>
      ) : null}
      <div className="mt-5">
        <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Responses</h4>
        <ul className="mt-2 space-y-1 text-sm">
          {Object.entries(op.responses ?? {}).map(([status, r]) => (
            <li key={status} className="flex flex-wrap items-baseline gap-2">
              <span className={`font-mono text-xs font-semibold ${status.startsWith("2") ? "text-emerald-700" : "text-rose-700"}`}>{status}</span>
              <span className="text-slate-700">{r.description}</span>
              <SchemaLink schema={r.content?.["application/json"]?.schema} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The readable API reference, rendered on the server from the generated OpenAPI document. */
export function ApiReference({ doc }: { doc: OpenApiDoc }) {
  const components = doc.components?.schemas ?? {};
  const operations = [
    ...Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op, webhook: false }))),
    ...Object.entries(doc.webhooks ?? {}).flatMap(([event, item]) => Object.entries(item).map(([method, op]) => ({ path: event, method, op, webhook: true }))),
  ];
  const tags = doc.tags ?? [];
  return (
    <div className="mx-auto flex max-w-7xl gap-10 px-4 py-10 sm:px-6">
      <nav aria-label="API reference" className="sticky top-6 hidden h-[calc(100vh-3rem)] w-60 shrink-0 overflow-y-auto text-sm lg:block">
        {tags.map((tag) => (
          <div key={tag.name} className="mb-5">
            <a href={`#tag-${tag.name}`} className="font-semibold text-slate-900">{tag.name}</a>
            <ul className="mt-2 space-y-1">
              {operations
                .filter((o) => o.op.tags?.includes(tag.name))
                .map((o) => (
                  <li key={o.op.operationId}>
                    <a href={`#${o.op.operationId}`} className="flex items-center gap-2 text-slate-600 hover:text-slate-900">
                      <span className="w-12 font-mono text-[10px] font-semibold uppercase text-slate-500">{o.method}</span>
                      {o.op.summary}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
        <a href="#schemas" className="font-semibold text-slate-900">Objects</a>
      </nav>
      <main id="main" tabIndex={-1} className="focus:outline-none min-w-0 flex-1">
        <h1 className="text-3xl font-semibold tracking-tight">{doc.info.title}</h1>
        <p className="mt-1 text-sm text-slate-500">
          Version {doc.info.version} ·{" "}
          <a className="text-sky-700 hover:underline" href="/api/v1/openapi.json">
            OpenAPI 3.1 document
          </a>
        </p>
        <div className="mt-6 max-w-3xl space-y-3 text-sm leading-6 text-slate-700">
          {(doc.info.description ?? "").split(/\n\s*\n/).map((para, i) => (
            <p key={i}>
              <InlineText text={para.replace(/\n/g, " ")} />
            </p>
          ))}
        </div>
        {tags.map((tag) => (
          <div key={tag.name} id={`tag-${tag.name}`} className="mt-12 scroll-mt-6">
            <h2 className="text-2xl font-semibold tracking-tight">{tag.name}</h2>
            {tag.description ? (
              <p className="mt-1 text-sm text-slate-600">
                <InlineText text={tag.description} />
              </p>
            ) : null}
            {operations
              .filter((o) => o.op.tags?.includes(tag.name))
              .map((o) => (
                <OperationSection key={o.op.operationId} {...o} components={components} />
              ))}
          </div>
        ))}
        <div id="schemas" className="mt-12 scroll-mt-6">
          <h2 className="text-2xl font-semibold tracking-tight">Objects</h2>
          {Object.entries(components).map(([name, schema]) => (
            <section key={name} id={`schema-${name}`} className="scroll-mt-6 border-t border-slate-200 py-6">
              <h3 className="font-mono text-base font-semibold break-all">{name}</h3>
              {schema.description ? <p className="mt-1 text-sm text-slate-600">{schema.description}</p> : null}
              <div className="mt-3">
                <FieldTable schema={schema} components={components} />
              </div>
            </section>
          ))}
        </div>
      </main>
    </div>
  );
}
