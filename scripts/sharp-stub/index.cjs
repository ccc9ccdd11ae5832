'use strict';
// Installed by electron-builder.yml at node_modules/sharp inside the app, in place of the real sharp
// and its ~20 MB of per-platform libvips binaries. transformers.js requires sharp when it loads (and
// refuses a missing or falsy one) but calls it only to read images; Forge embeds text only.
// scripts/package-check-model.test.ts proves the local model loads with this in place.
function sharp() {
  throw new Error('Image processing is not included in Forge: the installer carries no sharp (scripts/sharp-stub).');
}
module.exports = sharp;
