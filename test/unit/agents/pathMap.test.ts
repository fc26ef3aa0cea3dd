// An agent by URL's folders and this machine's: the longest mapped folder that holds a path wins, whole
// segments only, `..` resolved first; a path in no mapped folder maps nowhere, both ways.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expandPathMap, PathMap } from '../../../src/agents/pathMap';

const here = (...p: string[]) => path.join(path.sep === '\\' ? 'C:\\' : '/', ...p);

describe('agents: pathMap', () => {
  const map = new PathMap(
    expandPathMap(
      {
        '/srv/checkout': '${workspaceFolder}',
        '/srv/checkout/vendor': here('cache', 'vendor'),
        'D:\\builds': here('builds'),
      },
      here('home', 'me', 'project'),
    ),
  );

  it('maps the agent\'s paths here: the longest mapped folder wins, segment by segment', () => {
    assert.equal(map.toLocal('/srv/checkout'), here('home', 'me', 'project'));
    assert.equal(map.toLocal('/srv/checkout/src/a.ts'), here('home', 'me', 'project', 'src', 'a.ts'));
    assert.equal(map.toLocal('/srv/checkout/vendor/lib.js'), here('cache', 'vendor', 'lib.js'));
    assert.equal(map.toLocal('/srv/checkout//src/./b.ts'), here('home', 'me', 'project', 'src', 'b.ts'));
    // A Windows path of the agent's machine, compared without case.
    assert.equal(map.toLocal('d:\\Builds\\out\\log.txt'), here('builds', 'out', 'log.txt'));
    assert.equal(map.toLocal('D:/builds/x'), here('builds', 'x'));
  });

  it('a path in no mapped folder maps nowhere: a sibling with the same prefix, `..` out of it, a relative path, the other flavour', () => {
    for (const p of ['/srv/checkout-old/a', '/srv/checkout/../etc/passwd', '/srv', '/etc/hostname', 'srv/checkout/a', '', 'E:\\builds\\x', '/srv/checkout/..']) {
      assert.equal(map.toLocal(p), undefined, p);
    }
    // A POSIX name with backslashes stays one name here, and cannot climb out on any machine.
    const odd = map.toLocal('/srv/checkout/a\\..\\..\\..\\x');
    assert.ok(odd === undefined || odd.startsWith(here('home', 'me', 'project')), String(odd));
  });

  it('maps this machine\'s folders to the agent\'s names for them, or nowhere', () => {
    assert.equal(map.toRemote(here('home', 'me', 'project')), '/srv/checkout');
    assert.equal(map.toRemote(here('home', 'me', 'project', 'src')), '/srv/checkout/src');
    assert.equal(map.toRemote(here('cache', 'vendor', 'lib')), '/srv/checkout/vendor/lib');
    assert.equal(map.toRemote(here('builds', 'out')), 'D:\\builds\\out');
    assert.equal(map.toRemote(here('home', 'me', 'other')), undefined);
    assert.equal(map.toRemote('relative/path'), undefined);
    // A file attached to a prompt: its URI as the agent names it, the fragment (a selection's lines) kept.
    assert.equal(map.toRemoteUri(`${pathToFileURL(here('home', 'me', 'project', 'src', 'a b#.ts')).href}#L2-4`), 'file:///srv/checkout/src/a%20b%23.ts#L2-4');
    assert.equal(map.toRemoteUri(pathToFileURL(here('builds', 'x.txt')).href), 'file:///D:/builds/x.txt');
    assert.equal(map.toRemoteUri(pathToFileURL(here('elsewhere', 'x.txt')).href), undefined);
    assert.equal(map.toRemoteUri('vscode-problems:/workspace'), undefined);
    assert.equal(map.toRemoteUri('not a uri'), undefined);
    assert.match(map.describe(), /^\/srv\/checkout → .*project; \/srv\/checkout\/vendor → .*vendor; D:\\builds → .*builds$/);
  });
});
