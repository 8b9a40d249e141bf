// Counts the reply lexer's work, not its time: the lexer's own sources, compiled here with a
// counter added at the start of every loop iteration and every function call, then run with the
// string and regular expression primitives it uses wrapped to add the characters each examines.
// What is counted while `countWork` runs:
// - a loop iteration or a function (or callback) call: 1;
// - a regular expression run: 1, plus the characters from where it started to the end of its
//   match (a global or sticky run starts at lastIndex, any other at 0), or to the end of the text
//   when a non-sticky run fails (it may have tried every position). A sticky run that fails counts
//   1: the lexer's sticky expressions are tried at one position and stop at the first character
//   they cannot take, within the token they would have matched. An expression anchored with `^`
//   that fails counts the whole text, as any other non-sticky one (an upper bound);
// - `slice` and `substring`: 1. Every engine makes them views of the text they cut (V8 copies
//   only slices under 13 characters), and what later reads a slice is counted where it reads;
// - `indexOf`, `lastIndexOf` and `includes`: the characters they pass over;
// - `trim`, `trimEnd`, `trimStart`, `replace`, `replaceAll`, `split`,
//   `toLowerCase`, `normalize`, `repeat`, `padStart` and `padEnd`: the length of the text they
//   read or make.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import type { Token } from '../../../src/ui/markdown/tokens.js';

const SOURCES = ['block', 'table', 'inline', 'emphasis', 'tokens'];
const root = new URL('../../../src/ui/markdown/', import.meta.url);

/** The lexer's sources with `globalThis.__lexerWork()` at every loop iteration and function entry. */
function instrument(source: string): string {
  const tick = () =>
    ts.factory.createExpressionStatement(
      ts.factory.createCallExpression(ts.factory.createIdentifier('globalThis.__lexerWork'), undefined, []),
    );
  const counted = (body: ts.Statement) => ts.factory.createBlock([tick(), body], true);
  const transformer: ts.TransformerFactory<ts.SourceFile> = (context) => {
    const visit = (node: ts.Node): ts.Node => {
      node = ts.visitEachChild(node, visit, context);
      if (ts.isForStatement(node))
        return ts.factory.updateForStatement(node, node.initializer, node.condition, node.incrementor, counted(node.statement));
      if (ts.isForOfStatement(node))
        return ts.factory.updateForOfStatement(node, node.awaitModifier, node.initializer, node.expression, counted(node.statement));
      if (ts.isForInStatement(node))
        return ts.factory.updateForInStatement(node, node.initializer, node.expression, counted(node.statement));
      if (ts.isWhileStatement(node)) return ts.factory.updateWhileStatement(node, node.expression, counted(node.statement));
      if (ts.isDoStatement(node)) return ts.factory.updateDoStatement(node, counted(node.statement), node.expression);
      if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node)) && node.body) {
        const body = ts.isBlock(node.body)
          ? ts.factory.createBlock([tick(), ...node.body.statements], true)
          : ts.factory.createBlock([tick(), ts.factory.createReturnStatement(node.body)], true);
        if (ts.isFunctionDeclaration(node))
          return ts.factory.updateFunctionDeclaration(
            node,
            node.modifiers,
            node.asteriskToken,
            node.name,
            node.typeParameters,
            node.parameters,
            node.type,
            body,
          );
        if (ts.isFunctionExpression(node))
          return ts.factory.updateFunctionExpression(
            node,
            node.modifiers,
            node.asteriskToken,
            node.name,
            node.typeParameters,
            node.parameters,
            node.type,
            body,
          );
        return ts.factory.updateArrowFunction(
          node,
          node.modifiers,
          node.typeParameters,
          node.parameters,
          node.type,
          node.equalsGreaterThanToken,
          body,
        );
      }
      return node;
    };
    return (file) => visit(file) as ts.SourceFile;
  };
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    transformers: { before: [transformer] },
  }).outputText;
}

const dir = mkdtempSync(join(tmpdir(), 'lexer-work-'));
for (const name of SOURCES) writeFileSync(join(dir, `${name}.js`), instrument(readFileSync(new URL(`${name}.ts`, root), 'utf8')));
const { lexMarkdown } = (await import(pathToFileURL(join(dir, 'block.js')).href)) as { lexMarkdown: (text: string) => Token[] };
// Loaded: the compiled files are not needed any more.
rmSync(dir, { recursive: true, force: true });

let work = 0;
(globalThis as { __lexerWork?: () => void }).__lexerWork = () => void work++;

type Method = (this: unknown, ...args: unknown[]) => unknown;
/** Wraps `proto[name]` so that each call adds what `cost` says; returns how to undo it. */
function wrap(proto: object, name: string, cost: (self: unknown, args: unknown[], result: unknown) => number): () => void {
  const table = proto as Record<string, Method>;
  const original = table[name]!;
  table[name] = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    work += cost(this, args, result);
    return result;
  };
  return () => void (table[name] = original);
}

const length = (self: unknown) => String(self).length;
const passed = (self: unknown, args: unknown[], result: unknown) => {
  const text = String(self);
  const from = Math.max(0, Math.min(text.length, Number(args[1] ?? 0) || 0));
  const at = typeof result === 'number' ? result : -1;
  return 1 + (at < 0 || typeof result === 'boolean' ? text.length - from : at - from);
};

/**
 * The lexer's work on `text` (see the top of this file), and its tokens. The lexer is the real
 * one: its sources compiled with counters, nothing else changed.
 */
export function countWork(text: string): { work: number; tokens: Token[] } {
  const { exec } = RegExp.prototype;
  const restore = [
    wrap(String.prototype, 'indexOf', passed),
    wrap(String.prototype, 'includes', passed),
    wrap(String.prototype, 'lastIndexOf', (self) => 1 + length(self)),
    ...['slice', 'substring'].map((name) => wrap(String.prototype, name, () => 1)),
    ...['repeat', 'padStart', 'padEnd'].map((name) => wrap(String.prototype, name, (_self, _args, result) => 1 + String(result).length)),
    ...['trim', 'trimEnd', 'trimStart', 'replace', 'replaceAll', 'split', 'toLowerCase', 'normalize'].map((name) =>
      wrap(String.prototype, name, (self) => 1 + length(self)),
    ),
  ];
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, input);
    if (match) work += 1 + match.index + match[0].length - from;
    else work += this.sticky ? 1 : 1 + String(input).length - from;
    return match;
  };
  work = 0;
  try {
    const tokens = lexMarkdown(text);
    return { work, tokens };
  } finally {
    RegExp.prototype.exec = exec;
    for (const undo of restore) undo();
  }
}
