export { decodeManifest, type DecodeResult } from './decode';
export {
  pointer,
  type Finding,
  type FindingCode,
  type ErrorCode,
  type WarningCode,
} from './findings';
export { unsafePathReason, isPlainObject } from './payload-ref';
export { displayableChapters, type DisplayChapter } from './chapters';
export {
  compareIntegrity,
  INTEGRITY_MEMBERS,
  type IntegrityMember,
  type IntegrityOutcome,
  type IntegrityStatus,
  type AudioSourceDescription,
} from './integrity';
export type { ManifestReport, TranscriptView, TranscriptStatus } from './report';
export type * from './schema';
export * from './transcripts';
export {
  manifestVerdict,
  type ManifestVerdict,
  type VerdictInput,
  type VerdictKind,
  type VerdictTone,
  type VerdictPlayback,
} from './verdict';
export { formatDuration } from './duration';
export {
  meetingShareContent,
  meetingSummaryLine,
  parseShareTarget,
  linkableFileName,
  type SharedFile,
  type ShareSummary,
  type ShareTarget,
} from './share';
export {
  planMeetingFiles,
  meetingSummary,
  distinctUploads,
  uploadName,
  isManifestCandidate,
  MEETING_KIND,
  UNNAMED_AUDIO,
  type LinkedUpload,
  type PlannedFile,
  type MeetingFilePlan,
  type MeetingSummary,
} from './message-files';
