// The manifest viewer's main-process side: sessions, recent files, dialogs and the audio stream.
export {
  ManifestService,
  type ManifestDialogs,
  type ManifestServiceOptions,
  type ManifestMethodName,
} from './service';
export { MeetingAudioStreams, parseRange, type RangeRequest } from './media';
export { RecentManifests, MAX_RECENT } from './recent';
export { registerMeetingAudioRoute, serveMeetingAudioRequest } from './http';
