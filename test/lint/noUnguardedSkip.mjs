// The lint rule `acp/no-unguarded-skip` (eslint.config.mjs), tested with RuleTester in
// test/unit/lint/noUnguardedSkip.test.ts.
//
// A skipped test hides whatever it would catch, and a run stays green. So a skip is allowed
// only behind a platform guard that says why: inside `if (process.platform …)`, where the
// condition really compares process.platform with a platform name, with a comment on the
// guard's line, the line above it, or the skip's line. What counts as a skip:
//   - `it.skip(…)`, `describe.skip(…)` (and mocha's other names), `xit(…)`, `xdescribe(…)`;
//   - `this.skip()`, and any `x.skip()` without arguments (mocha's context, however named);
//   - a test or suite without its function, `it('x')` (mocha reports it as pending);
//   - any other use of those functions: `const s = it.skip`, `const { skip } = it`,
//     `const d = describe; d.skip(…)`, `[xit][0](…)` — an alias the rule could not follow.
// The harness fails a run with any skipped test on Linux (test/harness/verdict.mjs) besides.

/** The test and suite functions (mocha's bdd and tdd names). */
const TEST_FNS = new Set(['it', 'describe', 'context', 'specify', 'suite', 'test']);
/** The functions that skip by their name. */
const X_FNS = new Set(['xit', 'xdescribe', 'xcontext', 'xspecify']);
const EQUALITY = new Set(['===', '!==', '==', '!=']);

/**
 * @typedef {import('eslint').Rule.Node} Node
 * @typedef {{ type: string } & Record<string, any>} EsNode an ESTree node (its fields read as the rule needs them)
 */

/** @param {EsNode} n `process.platform`, exactly */
function isPlatform(n) {
  return n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier' && n.object.name === 'process' && n.property.type === 'Identifier' && n.property.name === 'platform';
}

/** @param {EsNode} n a string literal (a platform's name) */
const isName = (n) => (n.type === 'Literal' && typeof n.value === 'string') || (n.type === 'TemplateLiteral' && n.expressions.length === 0);

/**
 * Whether a condition holds on some platforms only: `process.platform === 'win32'` (or !==, or
 * `['darwin', 'win32'].includes(process.platform)`), `!` of one, `a && b` with one of them such,
 * `a || b` with both such. Anything else — a regular expression over the text, `process.platform`
 * alone, a comparison with a variable — is no guard.
 * @param {EsNode} n
 * @returns {boolean}
 */
export function isPlatformCondition(n) {
  switch (n.type) {
    case 'BinaryExpression':
      return EQUALITY.has(n.operator) && ((isPlatform(n.left) && isName(n.right)) || (isName(n.left) && isPlatform(/** @type {EsNode} */ (n.right))));
    case 'UnaryExpression':
      return n.operator === '!' && isPlatformCondition(n.argument);
    case 'LogicalExpression':
      return n.operator === '&&' ? isPlatformCondition(n.left) || isPlatformCondition(n.right) : n.operator === '||' && isPlatformCondition(n.left) && isPlatformCondition(n.right);
    case 'CallExpression': {
      const c = n.callee;
      return (
        c.type === 'MemberExpression' &&
        !c.computed &&
        c.property.type === 'Identifier' &&
        c.property.name === 'includes' &&
        c.object.type === 'ArrayExpression' &&
        c.object.elements.length > 0 &&
        c.object.elements.every((/** @type {EsNode | null} */ e) => e !== null && e.type !== 'SpreadElement' && isName(e)) &&
        n.arguments.length === 1 &&
        isPlatform(/** @type {EsNode} */ (n.arguments[0]))
      );
    }
    default:
      return false;
  }
}

/** @type {import('eslint').Rule.RuleModule} */
export const noUnguardedSkip = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      skip: '{{what}} is allowed only behind a platform guard that says why: `if (process.platform === …) this.skip(); // why`',
      alias: '{{what}}: a skip the lint cannot follow. Call it where it is, behind `if (process.platform === …)` with a comment',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const comments = source.getAllComments();
    /** @param {Node} node */
    const guarded = (node) => {
      for (const anc of source.getAncestors(node).reverse()) {
        if ((anc.type === 'IfStatement' || anc.type === 'ConditionalExpression') && isPlatformCondition(anc.test)) {
          const from = (anc.loc?.start.line ?? 0) - 1;
          const to = node.loc?.end.line ?? 0;
          return comments.some((c) => (c.loc?.start.line ?? -1) >= from && (c.loc?.start.line ?? Infinity) <= to);
        }
        if (anc.type.includes('Function')) break;
      }
      return false;
    };
    /**
     * The mocha function an identifier names: a global one (not declared in the file), or a
     * variable declared as one (`const d = describe`), followed through such aliases.
     * @param {Node} id
     * @param {number} [depth]
     * @returns {string | undefined}
     */
    const testFn = (id, depth = 0) => {
      if (id.type !== 'Identifier' || depth > 8) return undefined;
      let scope = /** @type {import('eslint').Scope.Scope | null} */ (source.getScope(id));
      while (scope) {
        const v = scope.set.get(id.name);
        if (v && v.defs.length > 0) {
          const def = v.defs[0];
          const init = def?.type === 'Variable' ? def.node.init : undefined;
          return init && init.type === 'Identifier' ? testFn(/** @type {Node} */ (init), depth + 1) : undefined;
        }
        scope = scope.upper;
      }
      return TEST_FNS.has(id.name) || X_FNS.has(id.name) ? id.name : undefined;
    };
    /** @param {Node} node */
    const memberName = (node) =>
      node.type === 'MemberExpression' ? (!node.computed && node.property.type === 'Identifier' ? node.property.name : node.property.type === 'Literal' ? String(node.property.value) : undefined) : undefined;
    /** @param {Node} node @param {string} what */
    const skip = (node, what) => {
      if (!guarded(node)) context.report({ node, messageId: 'skip', data: { what } });
    };
    return {
      CallExpression(node) {
        const callee = /** @type {Node} */ (node.callee);
        const fn = testFn(callee);
        if (fn && X_FNS.has(fn)) return skip(node, `${fn}()`);
        // A test or suite with no function: pending.
        const body = node.arguments[1];
        if (fn && (!body || (body.type === 'Identifier' && body.name === 'undefined') || (body.type === 'Literal' && body.value === null))) return skip(node, `${fn}() without its function`);
        if (memberName(callee) !== 'skip' || callee.type !== 'MemberExpression') return;
        const obj = /** @type {Node} */ (callee.object);
        const owner = testFn(obj);
        if (owner) return skip(node, `${owner}.skip()`);
        if (obj.type === 'ThisExpression') return skip(node, 'this.skip()');
        // Mocha's context by another name (`ctx.skip()`, `self.skip()`): skip() takes no argument.
        if (node.arguments.length === 0) return skip(node, `${source.getText(obj)}.skip()`);
      },
      // Any use of a skipping function other than a call where it is named.
      'Identifier, MemberExpression'(/** @type {Node} */ node) {
        const parent = /** @type {Node | undefined} */ (node.parent);
        const called = parent?.type === 'CallExpression' && parent.callee === node;
        if (called) return;
        if (node.type === 'Identifier') {
          // `const d = describe` is fine in itself (its calls are followed); `xit` as a value is not.
          if (parent?.type === 'MemberExpression' && parent.object !== node) return;
          if (parent?.type === 'Property' && parent.key === node && !parent.computed) return;
          const fn = testFn(node);
          if (fn && X_FNS.has(fn) && !(parent?.type === 'VariableDeclarator' && parent.id === node)) {
            if (!guarded(node)) context.report({ node, messageId: 'alias', data: { what: `${fn} as a value` } });
          }
          // `const { skip } = it`
          if (fn && TEST_FNS.has(fn) && parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'ObjectPattern') {
            context.report({ node: parent, messageId: 'alias', data: { what: `taking skip out of ${fn}` } });
          }
          return;
        }
        if (node.type !== 'MemberExpression' || memberName(node) !== 'skip') return;
        const obj = /** @type {Node} */ (node.object);
        const owner = testFn(obj) ?? (obj.type === 'ThisExpression' ? 'this' : undefined);
        if (owner && !guarded(node)) context.report({ node, messageId: 'alias', data: { what: `${owner}.skip as a value` } });
      },
    };
  },
};
