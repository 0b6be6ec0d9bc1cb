// highlight.js types its package root and its grammars but not the core entry point, which is the
// same HLJSApi without any grammar registered.
declare module 'highlight.js/lib/core' {
  import hljs from 'highlight.js';
  export default hljs;
}
