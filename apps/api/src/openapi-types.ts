// TypeScript declarations of the OpenAPI document's schemas, for the web app (apps/web/src/api/schema.ts).
// Covers the JSON Schema the document uses: $ref, const, enum, type (also as a list), oneOf/anyOf,
// allOf, arrays, and objects with properties or additionalProperties.

type Schema = { [keyword: string]: unknown };

const HEADER = '// Generated from the OpenAPI document (docs/openapi.json) by `npm run openapi`: do not edit.\n// The document is built from the controllers and the contexts\' *.openapi.ts; change those instead.\n';

/** One declaration per component schema, in the document's order. */
export function typescriptOf(schemas: Record<string, Schema>): string {
  const declarations = Object.entries(schemas).map(([name, schema]) => declaration(name, schema));
  return `${HEADER}\n${declarations.join('\n\n')}\n`;
}

function declaration(name: string, schema: Schema): string {
  const comment = docComment(schema.description, '');
  if (isPlainObject(schema)) return `${comment}export interface ${name} ${objectBody(schema, '')}`;
  return `${comment}export type ${name} = ${typeOf(schema, '')};`;
}

function isPlainObject(schema: Schema): boolean {
  return schema.type === 'object' && schema.properties !== undefined;
}

function typeOf(schema: Schema, indent: string): string {
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (union !== undefined) return union.map((member) => grouped(typeOf(member, indent))).join(' | ');
  if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map((member) => grouped(typeOf(member, indent))).join(' & ');
  if (Array.isArray(schema.type)) return (schema.type as string[]).map((type) => typeOf({ ...schema, type }, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${grouped(typeOf((schema.items as Schema | undefined) ?? {}, indent))}[]`;
    case 'object':
      if (schema.properties !== undefined) return objectBody(schema, indent);
      if (typeof schema.additionalProperties === 'object') return `Record<string, ${typeOf(schema.additionalProperties as Schema, indent)}>`;
      return 'Record<string, unknown>';
    default:
      return 'unknown';
  }
}

/** A string in single quotes, as the code base writes them; numbers and booleans as they are. */
function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

function objectBody(schema: Schema, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const lines = Object.entries(schema.properties as Record<string, Schema>).map(
    ([name, property]) => `${docComment(property.description, inner)}${inner}${name}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Unions inside an array or an intersection need parentheses. */
function grouped(type: string): string {
  return /[|&]/.test(type) && !type.startsWith('{') ? `(${type})` : type;
}

function docComment(description: unknown, indent: string): string {
  return typeof description === 'string' ? `${indent}/** ${description.replace(/\*\//g, '*\\/')} */\n` : '';
}
