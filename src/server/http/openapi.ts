// An OpenAPI 3.1 document generated from the endpoint catalog.
import type { Catalog, EndpointEntry, Family } from '../../core/catalog.ts';
import { endpointPath } from '../../core/catalog.ts';

function operation(family: Family, e: EndpointEntry) {
  const envelope = { $ref: '#/components/schemas/Envelope' };
  const parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, string> }> = (e.extra ?? []).flatMap((x) => {
    const p = [{ name: x.name as string, in: 'header', required: true, schema: { type: 'string' } }];
    if (x.in === 'query+header') p.push({ name: x.name, in: 'query', required: true, schema: { type: 'string' } });
    return p;
  });
  if (e.idempotent) {
    parameters.push({
      name: 'Idempotency-Key', in: 'header', required: false,
      schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,128}$' },
    });
  }
  const requestBody = e.body === 'json'
    ? { content: { 'application/json': { schema: { type: 'object' } } } }
    : e.body === 'multipart'
      ? { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } }
      : undefined;
  const ok = e.response === 'file'
    ? { description: '文件（Content-Disposition: attachment）；失败时为 JSON 信封', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: envelope } } }
    : { description: '信封 {code,msg,data}', content: { 'application/json': { schema: envelope } } };
  return {
    operationId: `${family}_${e.code}`,
    summary: e.name,
    description: [e.description, `权限：${e.permission}`, `处理程序：${e.handler}`, e.overlay ? '显示处理中遮罩' : '', e.dedupe === false ? '不做重复请求过滤' : '', e.idempotent ? '可带 Idempotency-Key：同一标识的重复提交返回首次的应答，不再写入' : ''].filter(Boolean).join('\n\n'),
    tags: [family],
    security: e.permission === 'public' ? [] : [{ token: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { 200: ok },
    'x-permission': e.permission,
    'x-overlay': !!e.overlay,
    'x-dedupe': e.dedupe !== false,
  };
}

export function buildOpenApi(catalog: Catalog) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [family, entries] of Object.entries(catalog.families) as [Family, EndpointEntry[]][]) {
    for (const e of entries) paths[endpointPath(family, e)] = { [e.method.toLowerCase()]: operation(family, e) };
  }
  return {
    openapi: '3.1.0',
    info: { title: '贸易后台接口', version: '1.0.0', description: '由 schemas/endpoints 接口目录生成。所有 JSON 响应为 {code, msg, data}。' },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } },
      schemas: { Envelope: { type: 'object', required: ['code', 'msg', 'data'], properties: { code: { type: 'string' }, msg: { type: 'string' }, data: {} } } },
    },
    paths,
  };
}
