// POST /calls/videoprovider/create (4.27). The local realm has no video provider integration, so
// no user ever holds a provider token (register: has_videoprovider_token false) and creating a
// call is refused with a clear error.
import type { ResourceModule } from '../module';
import { badRequest } from '../../http/errors';

export const videoCallsResource: ResourceModule = {
  name: 'video-calls',
  routes(api) {
    api.post('/calls/videoprovider/create', {}, () => {
      throw badRequest('No video call provider is configured on this server.');
    });
  },
};
