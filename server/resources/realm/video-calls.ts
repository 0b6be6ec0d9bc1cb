// POST /calls/videoprovider/create (4.27), also under the public path /calls/zoom/create
// (shared/api/public-names.ts). The local realm has no video provider integration, so no user ever
// holds a provider token (register: has_zoom_token false) and creating a call is refused with a
// clear error.
import type { ResourceModule } from '../module';
import { badRequest } from '../../http/errors';
import { bothSpellings } from '../../../shared/api/public-names';

export const videoCallsResource: ResourceModule = {
  name: 'video-calls',
  routes(api) {
    for (const path of bothSpellings('/calls/videoprovider/create')) {
      api.post(path, {}, () => {
        throw badRequest('No video call provider is configured on this server.');
      });
    }
  },
};
