// Testing Library's waits (findBy…, waitFor) give up after 1 s by default. The renderer tests that
// talk to a real local server (channels-live, compose-preview-live…) wait on HTTP round trips, and
// in `npm test` they share two cores with the end-to-end files: 1 s ran out there while each passed
// alone. A wait still ends as soon as its condition holds; only a failing one takes longer.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
