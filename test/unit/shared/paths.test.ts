import * as assert from 'node:assert/strict';
import { relativeTo, relativizeText } from '../../../src/shared/paths';

describe('relativeTo (paths shown in the panel)', () => {
  it('shows paths inside the session folder relative to it', () => {
    assert.equal(relativeTo('/w/project', '/w/project/src/a.ts'), 'src/a.ts');
    assert.equal(relativeTo('/w/project/', '/w/project/a.ts'), 'a.ts');
    assert.equal(relativeTo('C:\\w\\project', 'C:\\w\\project\\src\\a.ts'), 'src\\a.ts');
  });

  it('leaves other paths whole: outside, a sibling sharing the prefix, the folder itself, no folder', () => {
    assert.equal(relativeTo('/w/project', '/etc/passwd'), '/etc/passwd');
    assert.equal(relativeTo('/w/project', '/w/project-two/a.ts'), '/w/project-two/a.ts');
    assert.equal(relativeTo('/w/project', '/w/project'), '/w/project');
    assert.equal(relativeTo(undefined, '/w/project/a.ts'), '/w/project/a.ts');
  });

  it('relativizes paths inside the folder within a text, and nothing else', () => {
    assert.equal(relativizeText('/w/p', 'Edit /w/p/notes/a.md'), 'Edit notes/a.md');
    assert.equal(relativizeText('/w/p', 'diff /w/p/a.ts /w/p/b.ts'), 'diff a.ts b.ts');
    assert.equal(relativizeText('/w/p', 'Read /etc/hosts'), 'Read /etc/hosts');
    assert.equal(relativizeText('/w/p', 'Edit /w/p2/x'), 'Edit /w/p2/x');
    assert.equal(relativizeText(undefined, 'Edit /w/p/a'), 'Edit /w/p/a');
  });
});
