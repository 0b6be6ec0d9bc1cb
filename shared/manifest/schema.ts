// The shape of a version-1 manifest (meeting-manifest.md §2 with manifest-decisions §1-§2), as zod
// schemas. Objects are open (unknown members kept and ignored) except `integrity` and every
// payloadRef, which are closed. Relations between members (ids, sources, payload references) are
// checked in rules.ts, not here.
import * as z from 'zod';

export const UTC_DATE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$/;
export const LOCAL_DATE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/;
export const ROOM_ID = /^rm_[0-9a-f]{16}$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const TRANSCRIPT_ID = /^[A-Za-z0-9._:-]{1,64}$/;

const nonEmpty = () => z.string().min(1);
const count = () => z.int().min(0);
const utcDateTime = () => z.string().regex(UTC_DATE_TIME);
const transcriptId = () => z.string().regex(TRANSCRIPT_ID);
const channels = () => z.int().min(1).max(2);

export const payloadRefSchema = z.strictObject({
  path: z.string().optional(),
  attachment: z.string().optional(),
  sha256: z.string().regex(SHA256_HEX).optional(),
  byteLength: count().optional(),
});

export const meetingSchema = z.looseObject({
  id: nonEmpty(),
  title: nonEmpty(),
  createdAtUtc: utcDateTime(),
  durationMs: count(),
  recordedAtLocal: z.string().regex(LOCAL_DATE_TIME).optional(),
  processedAtUtc: utcDateTime().optional(),
  language: z.string().optional(),
  roomId: z.string().regex(ROOM_ID).optional(),
  roomName: z.string().optional(),
  jobId: z.string().optional(),
  attemptNumber: z.int().min(1).optional(),
  summary: z.string().optional(),
});

export const audioSchema = z.looseObject({
  container: z.literal('ogg'),
  codec: z.literal('opus'),
  sampleRate: z.literal(48000),
  channels: channels(),
  sampleCount: count(),
  durationMs: count(),
  payloadRef: payloadRefSchema.optional(),
});

export const integritySchema = z.strictObject({
  matchPolicy: z.literal('exact-opus-audio-v1'),
  opusAudioSha256: z.string().regex(SHA256_HEX),
  sampleRate: z.literal(48000),
  channels: channels(),
  sampleCount: count(),
  durationMs: count(),
});

export const speakerSchema = z.looseObject({ id: nonEmpty(), label: nonEmpty() });

export const TRANSCRIPT_ROLES = ['raw-asr', 'human-corrected', 'translation', 'scripted'] as const;
export const READABLE_ROLES = ['readable-cleanup', 'display'] as const;

export const transcriptSchema = z.looseObject({
  id: transcriptId(),
  role: z.enum(TRANSCRIPT_ROLES),
  format: nonEmpty(),
  payloadRef: payloadRefSchema,
  default: z.boolean().optional(),
  language: z.string().optional(),
  wordCount: count().optional(),
  createdAtUtc: utcDateTime().optional(),
  sourceTranscriptId: transcriptId().optional(),
});

export const readableTranscriptSchema = z.looseObject({
  id: transcriptId(),
  role: z.enum(READABLE_ROLES).optional(),
  format: nonEmpty(),
  sourceTranscriptId: transcriptId(),
  payloadRef: payloadRefSchema,
  default: z.boolean().optional(),
  language: z.string().optional(),
  wordCount: count().optional(),
});

// A processing step's shape is not specified; it is an object and its members are hints.
const processingStep = () => z.looseObject({});
const stepsByName = () => z.record(z.string(), processingStep());

export const provenanceSchema = z.looseObject({
  speechToText: stepsByName().optional(),
  readableCleanup: stepsByName().optional(),
  displayTranscript: stepsByName().optional(),
  meetingSummary: processingStep().optional(),
  attribution: z.looseObject({}).optional(),
  wordTimings: z.looseObject({}).optional(),
});

export const attachmentSchema = z.looseObject({
  name: nonEmpty(),
  mime: nonEmpty(),
  contentBase64: z.string(),
});

// Chapters are open objects; the viewer shows those with a string title and an integer startMs.
export const chapterSchema = z.looseObject({});

export const manifestSchema = z.looseObject({
  kind: z.literal('fmt-portable-meeting'),
  version: z.literal(1),
  profile: z.literal('ogg-opus'),
  meeting: meetingSchema,
  audio: audioSchema,
  integrity: integritySchema,
  speakers: z.array(speakerSchema),
  transcripts: z.array(transcriptSchema).min(1),
  readableTranscripts: z.array(readableTranscriptSchema).optional(),
  provenance: provenanceSchema.optional(),
  chapters: z.array(chapterSchema).optional(),
  summary: z.looseObject({}).optional(),
  attachments: z.array(attachmentSchema).optional(),
});

export type PayloadRef = z.infer<typeof payloadRefSchema>;
export type Meeting = z.infer<typeof meetingSchema>;
export type AudioDescription = z.infer<typeof audioSchema>;
export type Integrity = z.infer<typeof integritySchema>;
export type Speaker = z.infer<typeof speakerSchema>;
export type TranscriptEntry = z.infer<typeof transcriptSchema>;
export type ReadableTranscriptEntry = z.infer<typeof readableTranscriptSchema>;
export type Attachment = z.infer<typeof attachmentSchema>;
/** A manifest that decoded without errors. Unknown members are kept (and ignored) at every depth. */
export type TypedManifest = z.infer<typeof manifestSchema>;
