import * as assert from 'node:assert/strict';
import { checkField, fieldsOf } from '../../src/sessions/elicitationSchema';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    color: { type: 'string', enum: ['red', 'green'] },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    junk: 'not a schema',
  },
  required: ['name', 'count'],
};

describe('elicitation form fields', () => {
  const fields = fieldsOf(schema);
  const f = (k: string) => fields.find((x) => x.key === k)!;

  it('reads every supported property kind, with required fields', () => {
    assert.deepEqual(fields.map((x) => `${x.key}:${x.kind}${x.required ? '!' : ''}`), ['name:string!', 'email:string', 'color:enum', 'size:enum', 'count:integer!', 'ratio:number', 'ok:boolean', 'tags:multi']);
    assert.deepEqual(f('size').options, [{ value: 's', title: 'Small' }, { value: 'l', title: 'Large' }]);
  });

  it("an error about the agent's own title or pattern shows them as text: VS Code renders links and icons in an input box's validation message", async () => {
    const evil = fieldsOf({
      type: 'object',
      properties: { a: { type: 'string', title: '[Open](command:workbench.action.terminal.new) $(alert)', pattern: '[Continue](command:workbench.action.terminal.new)' } },
      required: ['a'],
    });
    const field = evil[0]!;
    const errors = [(await checkField(field, '')).error!, (await checkField(field, 'x')).error!];
    for (const e of errors) {
      // VS Code's link grammar needs "](" directly before the target; its icon grammar "$(" directly.
      assert.doesNotMatch(e, /\]\((?:command:|https?:|file:)/, e);
      assert.doesNotMatch(e, /\$\(/, e);
      assert.match(e, /Open|Continue/, 'the text is still shown');
    }
  });

  it('validates', async () => {
    assert.match((await checkField(f('name'), '')).error!, /required/);
    assert.match((await checkField(f('name'), 'x')).error!, /At least 2/);
    assert.deepEqual((await checkField(f('name'), 'Ada')), { value: 'Ada' });
    assert.match((await checkField(f('email'), 'nope')).error!, /e-mail/);
    assert.deepEqual((await checkField(f('email'), '')), {});
    assert.match((await checkField(f('count'), '2.5')).error!, /whole/);
    assert.match((await checkField(f('count'), '9')).error!, /At most 5/);
    assert.deepEqual((await checkField(f('count'), '3')), { value: 3 });
    assert.deepEqual((await checkField(f('ratio'), '0.25')), { value: 0.25 });
    assert.deepEqual((await checkField(f('ok'), 'false')), { value: false });
    assert.match((await checkField(f('color'), 'blue')).error!, /options/);
    assert.deepEqual((await checkField(f('tags'), ['a', 'c'])), { value: ['a', 'c'] });
    assert.match((await checkField(f('tags'), ['a', 'b', 'c'])).error!, /at most 2/);
  });
});
