// Every resource module, in mount order. To add a domain, write server/resources/<domain>.ts
// exporting a ResourceModule and append it here (see server/README.md "How to add a resource").
import type { ResourceModule } from './module';
import { eventsResource } from './events';
import { registerResource, setStateProviders } from './register';
import { serverInfoResource } from './server-info';
import { realmSettingsResource } from './realm-settings';

export const resources: readonly ResourceModule[] = [
  serverInfoResource,
  registerResource,
  eventsResource,
  realmSettingsResource,
];

setStateProviders(resources);
