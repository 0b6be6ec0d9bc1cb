// Node-side manifest file access: used by the command line now and by the main process's IPC handlers.
export {
  inspectManifest,
  inspectManifestFile,
  readManifestBytes,
  ManifestReadError,
  MAX_MANIFEST_BYTES,
  type DecodedAttachment,
  type InspectOptions,
  type ManifestInspection,
} from './inspect';
export {
  locateAudio,
  readAudioIntegrity,
  AUDIO_CHUNK_BYTES,
  FILE_CHANGED_WHILE_CHECKED,
  type AudioLocation,
  type AudioRead,
} from './audio';
export {
  readPayload,
  findAttachment,
  MAX_PAYLOAD_BYTES,
  type PayloadContext,
  type PayloadRead,
} from './payloads';
export { resolveInsideFolder, decodeBase64, type ResolvedFile } from './safe-files';
export { nodeSha256 } from './node-hash';
export { AttachmentBytes } from './attachment-bytes';
export {
  fileIdentity,
  sameIdentity,
  type FileIdentity,
  type VerifiedAudio,
} from './verified-audio';
export { meetingFilesToShare, MeetingShareError, type MeetingFiles } from './share-files';
