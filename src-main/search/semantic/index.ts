export { DEFAULT_EMBED_TIMEOUT_MS, LocalModelEmbedder, type LocalModelEmbedderOptions } from './local-embedder';
export { downloadModel, type DownloadOptions, type DownloadProgress } from './download';
export { MINILM_MANIFEST, MINILM_REVISION, isPinned, type ModelFile, type ModelManifest } from './manifest';
export { INSTALLED_MARKER, isDownloaded, modelFolderIn, validateModelFolder, type ModelFolder } from './model-folder';
export { ModelChecksumError, ModelDownloadError, ModelFolderError } from './errors';
export { findInstalledModel, type InstalledModel, modelInFolder } from './installed';
