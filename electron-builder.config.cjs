// Installers (npm run dist, which runs scripts/dist.ts): Linux AppImage and deb, macOS dmg, Windows
// NSIS. Plain CommonJS so electron-builder and test/main/packaging.test.ts read the same object
// without a transpiler (the package is "type": "module", hence .cjs). The table in
// docs/desktop-shell.md ("Desktop shell and installers") is checked against this file by that test.
//
// What is packed: scripts/dist.ts stages dist/app/ (the bundled main process and preload, which
// need no node_modules, the built renderer, and a package.json without dependencies), so nothing is
// rebuilt for Electron and no native module is shipped.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, as electron-builder loads it */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const electronVersion = JSON.parse(
  readFileSync(join(__dirname, 'node_modules/electron/package.json'), 'utf8'),
).version;

/** Manifests are JSON documents with no extension or media type of their own (meeting-manifest.md). */
const MANIFEST_TYPE = {
  ext: 'json',
  name: 'Meeting manifest',
  description: 'Meeting manifest',
  mimeType: 'application/json',
};

/** @type {import('app-builder-lib').Configuration} */
module.exports = {
  appId: 'app.tributary.desktop',
  productName: 'Tributary',
  executableName: 'tributary',
  copyright: 'Copyright © Tributary contributors',
  electronVersion,
  directories: { app: 'dist/app', output: 'dist/installers', buildResources: 'build' },
  files: ['**/*', '!**/*.map'],
  asar: true,
  npmRebuild: false,
  // tributary://host/#narrow/… and the public app's zulip:// links open a conversation (docs/desktop-shell.md).
  protocols: [{ name: 'Tributary link', schemes: ['tributary', 'zulip'], role: 'Viewer' }],
  linux: {
    target: ['AppImage', 'deb'],
    icon: 'build/icons',
    category: 'Network;InstantMessaging;Chat',
    synopsis: 'Topic-based team chat',
    // Listed under "Open With" for JSON files; no MIME definition is installed, so .json files keep
    // their description and default application.
    mimeTypes: [MANIFEST_TYPE.mimeType],
    desktop: { entry: { StartupWMClass: 'Tributary' } },
  },
  deb: { packageCategory: 'net' },
  mac: {
    target: ['dmg'],
    icon: 'build/icon.icns',
    category: 'public.app-category.social-networking',
    // An alternate viewer of JSON: offered in "Open With", never the default for .json files.
    fileAssociations: [{ ...MANIFEST_TYPE, role: 'Viewer', rank: 'Alternate' }],
  },
  dmg: { title: 'Tributary ${version}' },
  win: { target: ['nsis'], icon: 'build/icon.ico' },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    // electron-builder's own file association would make Tributary the default for every .json
    // file; build/installer.nsh adds it to .json's "Open with" list only.
    include: 'build/installer.nsh',
  },
};
