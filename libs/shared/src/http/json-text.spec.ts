import { DATA_SOURCE } from './data-source.js';
import { dataResponseText, JsonText } from './json-text.js';

describe('JSON text in a response', () => {
  it('puts a JsonText field in as its text, in its place among the fields serialised as usual', () => {
    const body = dataResponseText({ summary: { total: 1.5, name: 'a "b"' }, trades: new JsonText('[{"symbol":"X","price":12.5}]'), dividends: [] });
    expect(body.text).toBe(`{"success":true,"summary":{"total":1.5,"name":"a \\"b\\""},"trades":[{"symbol":"X","price":12.5}],"dividends":[],"data_source":"${DATA_SOURCE}"}`);
  });

  it('leaves text that only looks like the stand-in alone, and puts in a text holding `$` patterns as it is', () => {
    const body = dataResponseText({ note: 'json-text-#0', trades: new JsonText('["$&","$1","$$"]') });
    expect(JSON.parse(body.text)).toEqual({ success: true, note: 'json-text-#0', trades: ['$&', '$1', '$$'], data_source: DATA_SOURCE });
  });

  it('serialised any other way, is the value its text holds', () => {
    expect(JSON.stringify({ list: new JsonText('[1, 2]') })).toBe('{"list":[1,2]}');
  });
});
