// Browser mode's route for verified meeting audio: GET/HEAD /media/meeting-audio/<token>. Like the
// realm media route it needs the per-launch secret (the SameSite=Strict cookie the page sets), so
// another site cannot use a leaked token; Electron serves the same streams over its media protocol.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEETING_AUDIO_PATH } from '../../shared/ipc/manifest';
import type { MeetingAudioStreams } from './media';

export function registerMeetingAudioRoute(
  app: FastifyInstance,
  streams: MeetingAudioStreams,
  authorized: (request: FastifyRequest) => boolean,
): void {
  app.route<{ Params: { token: string } }>({
    method: ['GET', 'HEAD'],
    url: `${MEETING_AUDIO_PATH}/:token`,
    handler: async (request, reply) => {
      if (!authorized(request)) return reply.code(401).send('Unauthorized');
      const range = request.headers.range;
      return reply.send(streams.serve(request.params.token, range ?? null, request.method));
    },
  });
}

/** Electron's media protocol: answers tributary-media://meeting-audio/<token> requests. */
export function serveMeetingAudioRequest(streams: MeetingAudioStreams, request: Request): Response {
  const token = decodeURIComponent(new URL(request.url).pathname.replace(/^\/+/, ''));
  return streams.serve(token, request.headers.get('range'), request.method);
}
