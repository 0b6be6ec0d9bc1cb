import hljsCore from 'highlight.js/lib/core';
import type { Emitter, LanguageFn } from 'highlight.js';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import clojure from 'highlight.js/lib/languages/clojure';
import cmake from 'highlight.js/lib/languages/cmake';
import coffeescript from 'highlight.js/lib/languages/coffeescript';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dart from 'highlight.js/lib/languages/dart';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import elixir from 'highlight.js/lib/languages/elixir';
import elm from 'highlight.js/lib/languages/elm';
import erlang from 'highlight.js/lib/languages/erlang';
import fsharp from 'highlight.js/lib/languages/fsharp';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import groovy from 'highlight.js/lib/languages/groovy';
import haskell from 'highlight.js/lib/languages/haskell';
import http from 'highlight.js/lib/languages/http';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import julia from 'highlight.js/lib/languages/julia';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import less from 'highlight.js/lib/languages/less';
import lisp from 'highlight.js/lib/languages/lisp';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import matlab from 'highlight.js/lib/languages/matlab';
import nginx from 'highlight.js/lib/languages/nginx';
import objectivec from 'highlight.js/lib/languages/objectivec';
import ocaml from 'highlight.js/lib/languages/ocaml';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import protobuf from 'highlight.js/lib/languages/protobuf';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scheme from 'highlight.js/lib/languages/scheme';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import vbnet from 'highlight.js/lib/languages/vbnet';
import x86asm from 'highlight.js/lib/languages/x86asm';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** A highlight.js scope (e.g. "title.function") and what it spans; the root's scope is "". */
export interface ScopeNode {
  scope: string;
  children: Array<string | ScopeNode>;
}

const GRAMMARS: Record<string, LanguageFn> = {
  bash,
  c,
  clojure,
  cmake,
  coffeescript,
  cpp,
  csharp,
  css,
  dart,
  diff,
  dockerfile,
  elixir,
  elm,
  erlang,
  fsharp,
  go,
  graphql,
  groovy,
  haskell,
  http,
  ini,
  java,
  javascript,
  json,
  julia,
  kotlin,
  latex,
  less,
  lisp,
  lua,
  makefile,
  markdown,
  matlab,
  nginx,
  objectivec,
  ocaml,
  perl,
  php,
  powershell,
  protobuf,
  python,
  r,
  ruby,
  rust,
  scala,
  scheme,
  scss,
  sql,
  swift,
  typescript,
  vbnet,
  x86asm,
  xml,
  yaml,
};

// highlight.js renders its own HTML; this emitter keeps the scope tree instead, so the Pygments
// classes can be chosen from whole scopes (a string's class depends on its opening quote).
class ScopeTreeEmitter implements Emitter {
  readonly root: ScopeNode = { scope: '', children: [] };
  private readonly open: ScopeNode[] = [this.root];

  private get top(): ScopeNode {
    return this.open[this.open.length - 1];
  }

  addText(text: string): void {
    if (text) this.top.children.push(text);
  }

  startScope(scope: string): void {
    const node: ScopeNode = { scope, children: [] };
    this.top.children.push(node);
    this.open.push(node);
  }

  endScope(): void {
    if (this.open.length > 1) this.open.pop();
  }

  // highlight.js opens and closes a mode's scope under these (older) names.
  openNode(scope: string): void {
    this.startScope(scope);
  }

  closeNode(): void {
    this.endScope();
  }

  __addSublanguage(emitter: Emitter, name: string): void {
    this.top.children.push({
      scope: `language:${name}`,
      children: (emitter as ScopeTreeEmitter).root.children,
    });
  }

  finalize(): void {
    this.open.length = 1;
  }

  toHTML(): string {
    return '';
  }
}

// A private instance: the emitter is an instance-wide option, and the default instance may be
// configured by other code in the process. Made at the first code block, not as the server loads:
// registering the grammars builds each one's rules (about 10 ms of a first launch's realm before it
// listens, docs/benchmarks.md, start-up, eleventh pass), and a first screen renders no code.
let instance: ReturnType<typeof hljsCore.newInstance> | null = null;

function highlighter(): ReturnType<typeof hljsCore.newInstance> {
  if (instance) return instance;
  const hljs = hljsCore.newInstance();
  hljs.configure({ __emitter: ScopeTreeEmitter, classPrefix: '' });
  for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);
  return (instance = hljs);
}

export function scopeTree(code: string, grammar: string): ScopeNode {
  const result = highlighter().highlight(code, { language: grammar, ignoreIllegals: true });
  return (result._emitter as unknown as ScopeTreeEmitter).root;
}
