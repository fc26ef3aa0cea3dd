import * as assert from 'node:assert/strict';
import { relativeTo } from '../../../src/shared/paths';

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
});
