// The manifest command line's usage lines, apart from the commands so that `verify` does not load
// what `share` needs (the upload path) just to print them.
export const VERIFY_USAGE =
  'usage: npm run --silent manifest -- verify MANIFEST [--audio FILE] [--json]';
export const SHARE_USAGE =
  "usage: npm run --silent manifest -- share MANIFEST --to 'channel:NAME topic:TOPIC' | --to dm:EMAIL [--zuliprc FILE | --account EMAIL] [--data DIR] [--json]";
