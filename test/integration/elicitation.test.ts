// elicitation/create from a fake agent: a form round-trips its values (with
// validation), a URL is only accepted with consent.
import * as assert from 'node:assert/strict';
import type { Field } from '../../src/host/elicitationSchema';
import { api, closeAllEditors, connected, readRecord, waitForStatus } from './helpers';

describe('Elicitation (form and URL)', function () {
  this.timeout(60_000);

  after(async () => {
    const a = await api();
    a.testing.setElicitationUi(undefined);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('a form round-trips typed values (an invalid answer is asked again); a URL is declined without opening', async () => {
    const a = await api();
    const asked: string[] = [];
    const answers: Record<string, (string | string[])[]> = { name: ['x', 'shop'], region: ['eu'], replicas: ['3'], public: ['true'], features: [['logs', 'traces']] };
    a.testing.setElicitationUi({
      async start(_agent, message, fields: readonly Field[]) {
        asked.push(`start:${message}:${fields.map((f) => f.key).join(',')}`);
        return 'fill';
      },
      async field(f, error) {
        asked.push(`${f.key}${error ? `(${error})` : ''}`);
        return answers[f.key]!.shift();
      },
      async url(_agent, _message, url, host) {
        asked.push(`url:${host}:${url}`);
        return 'decline';
      },
    });
    const panel = a.openChat('fake-elicit');
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('deploy it'), 'end_turn');
    const init = readRecord('elicit').find((r) => r.msg?.method === 'initialize').msg;
    assert.deepEqual(init.params.clientCapabilities.elicitation, { form: {}, url: {} });
    const results = readRecord('elicit').filter((r) => r.dir === 'in' && r.msg?.id?.startsWith?.('agent-') && r.msg.method === undefined).map((r) => r.msg.result);
    assert.deepEqual(results[0], { action: 'accept', content: { name: 'shop', region: 'eu', replicas: 3, public: true, features: ['logs', 'traces'] } });
    assert.deepEqual(results[1], { action: 'decline' });
    assert.deepEqual(asked, [
      'start:Configure the deploy:name,region,replicas,public,features',
      'name',
      'name(At least 2 characters.)',
      'region',
      'replicas',
      'public',
      'features',
      'url:login.example.com:https://login.example.com/device?code=ABC',
    ]);
  });
});
