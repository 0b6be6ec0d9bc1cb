// Upload links in messages: in Electron (the sanitizer pointed them at the media protocol, which the
// window may not open) main opens the file through openUpload with the realm path; in browser mode
// the page opens main's /media route in a new tab.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openUploadLink } from '../../../renderer/features/messages/upload-links';
import { installFakeApi, type FakeApi } from './harness';

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => vi.restoreAllMocks());

function link(href: string, realmPath: string | null): HTMLAnchorElement {
  const a = document.createElement('a');
  a.setAttribute('href', href);
  if (realmPath) a.setAttribute('data-realm-href', realmPath);
  return a;
}

describe('openUploadLink', () => {
  it('asks main to open the upload in Electron, with the realm path and never the media URL', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const a = link(
      'tributary-media://acct-1/user_uploads/2/ab/report.pdf',
      '/user_uploads/2/ab/report.pdf',
    );
    expect(openUploadLink(a, 'acct-1')).toBe(true);
    expect(api.openUpload).toHaveBeenCalledWith({
      accountId: 'acct-1',
      path: '/user_uploads/2/ab/report.pdf',
    });
    expect(open).not.toHaveBeenCalled();
  });

  it("opens main's /media route in a new tab in browser mode", () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const a = link('/media/acct-1/user_uploads/2/ab/report.pdf', '/user_uploads/2/ab/report.pdf');
    expect(openUploadLink(a, 'acct-1')).toBe(true);
    expect(open).toHaveBeenCalledWith(
      '/media/acct-1/user_uploads/2/ab/report.pdf',
      '_blank',
      'noopener',
    );
    expect(api.openUpload).not.toHaveBeenCalled();
  });

  it('leaves other links alone', () => {
    expect(openUploadLink(link('https://example.com/', null), 'acct-1')).toBe(false);
    expect(api.openUpload).not.toHaveBeenCalled();
  });
});
