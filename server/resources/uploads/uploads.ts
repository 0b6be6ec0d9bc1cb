// Uploads: POST /user_uploads (multipart, streamed to disk by uploads/multipart-spool.ts), the tus
// endpoint /api/v1/tus (uploads/tus.ts), authenticated downloads outside /api/v1, temporary
// download URLs, and GET/DELETE /attachments with `attachment` events to the owner.
import { rm } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { SENT } from '../../http/router';
import type { AuthUser, RealmContext } from '../../realm/context';
import {
  attachmentById,
  attachmentByPathId,
  attachmentDict,
  canUserAccessAttachment,
  deleteAttachmentRow,
  insertAttachment,
  ownedAttachments,
  uploadSpaceUsed,
  type AttachmentDict,
  type AttachmentRow,
} from '../../uploads/attachments';
import { chooseContentType } from '../../uploads/mime';
import { installUploadSpool, takeSpool, type SpoolState } from '../../uploads/multipart-spool';
import { sendUpload } from '../../uploads/serve';
import { UploadStorage, displayFileName, newPathId, uploadUrl } from '../../uploads/storage';
import { TemporaryUrlSigner } from '../../uploads/temporary-urls';
import { UploadThumbnails } from '../../uploads/thumbnails';
import { mountTus, removeTusCopy } from '../../uploads/tus';
import type { ResourceModule } from '../module';

const FILE_NOT_FOUND = 'File not found';

export const uploadsResource: ResourceModule = {
  name: 'uploads',
  routes(api, ctx) {
    const storage = new UploadStorage(ctx.uploadsDir);
    const signer = new TemporaryUrlSigner(() => ctx.nowSeconds());
    const thumbnails = new UploadThumbnails(ctx.db, storage.root);
    // Its hooks run only where multipart bodies are read.
    installUploadSpool(api.multipartApp, storage);

    /** Before the upload answers: a message sent with its link then finds the thumbnails. */
    const thumbnailUpload = async (row: AttachmentRow) => {
      const filePath = storage.filePath(row.path_id);
      if (filePath && row.content_type)
        await thumbnails.processUpload(row.path_id, row.content_type, filePath);
    };

    const recordUpload = (upload: {
      ownerId: number;
      name: string;
      pathId: string;
      size: number;
      contentType: string | undefined;
    }): AttachmentRow => {
      const row = insertAttachment(ctx.db, {
        ownerId: upload.ownerId,
        name: upload.name,
        pathId: upload.pathId,
        size: upload.size,
        contentType: chooseContentType(upload.contentType, upload.name),
        createTime: ctx.nowSeconds(),
      });
      announce(ctx, row.owner_id, 'add', attachmentDict(ctx.db, row));
      return row;
    };

    mountTus(api.app, {
      ctx,
      storage,
      authenticator: new Authenticator(ctx.db),
      authenticateAndCount: (request) => api.authenticateAndCount(request),
      recordUpload: async (upload) => thumbnailUpload(recordUpload(upload)),
    });

    // Its own Fastify route: the spool's onRoute hook gives it its multipart options.
    api.post('/user_uploads', { ownRoute: true }, async ({ user, request }) => {
      const spool = takeSpool(request);
      try {
        const file = singleFile(spool, ctx.config.maxFileUploadSizeMib);
        const name = displayFileName(file.fileName);
        const pathId = newPathId(name);
        await storage.place(file.path, pathId);
        let row: AttachmentRow;
        try {
          row = recordUpload({
            ownerId: user.id,
            name,
            pathId,
            size: file.size,
            contentType: file.mimeType,
          });
        } catch (error) {
          await storage.remove(pathId);
          throw error;
        }
        await thumbnailUpload(row);
        const url = uploadUrl(pathId);
        return { uri: url, url, filename: name };
      } finally {
        // Whatever was not placed (a rejected request's spool) is garbage.
        await Promise.all(spool.files.map((f) => rm(f.path, { force: true })));
      }
    });

    // A short-lived URL that serves the file without credentials (for <img>, <audio>, shells).
    api.get('/user_uploads/*', {}, ({ user, path }) => {
      const row = accessibleAttachment(ctx, user, path['*']);
      const fileName = row.path_id.split('/').pop() ?? '';
      return {
        url: `/user_uploads/temporary/${signer.sign(row.id)}/${encodeURIComponent(fileName)}`,
      };
    });

    const serve = async (
      request: FastifyRequest,
      reply: FastifyReply,
      row: AttachmentRow,
      forceDownload: boolean,
      cacheControl: string,
    ): Promise<typeof SENT> => {
      const filePath = storage.filePath(row.path_id);
      if (!filePath) throw notFound(FILE_NOT_FOUND);
      await sendUpload(request, reply, row, filePath, { forceDownload, cacheControl });
      return SENT;
    };

    api.get(
      '/user_uploads/temporary/:token/:filename',
      { absolute: true, auth: false },
      ({ path, request, reply }) => {
        const attachmentId = signer.verify(path.token);
        const row = attachmentId === null ? undefined : attachmentById(ctx.db, attachmentId);
        if (!row) throw notFound(FILE_NOT_FOUND);
        return serve(request, reply, row, false, 'private, no-store');
      },
    );

    // Same access as the upload itself: 404 alike for a missing image and one the user cannot see.
    api.get(
      '/user_uploads/thumbnail/*',
      { absolute: true },
      async ({ user, path, request, reply }): Promise<typeof SENT> => {
        const rest = path['*'] ?? '';
        const slash = rest.lastIndexOf('/');
        const row = accessibleAttachment(ctx, user, rest.slice(0, Math.max(slash, 0)));
        const original = storage.filePath(row.path_id);
        const thumbnail =
          original &&
          (await thumbnails.thumbnailFile(row.path_id, rest.slice(slash + 1), original));
        if (!thumbnail) throw notFound(FILE_NOT_FOUND);
        await sendUpload(
          request,
          reply,
          { ...row, content_type: 'image/webp', file_name: thumbnail.name },
          thumbnail.path,
          { forceDownload: false, cacheControl: 'private, max-age=3600' },
        );
        return SENT;
      },
    );

    api.get('/user_uploads/download/*', { absolute: true }, ({ user, path, request, reply }) =>
      serve(
        request,
        reply,
        accessibleAttachment(ctx, user, path['*']),
        true,
        'private, max-age=3600',
      ),
    );

    api.get('/user_uploads/*', { absolute: true }, ({ user, path, request, reply }) =>
      serve(
        request,
        reply,
        accessibleAttachment(ctx, user, path['*']),
        false,
        'private, max-age=3600',
      ),
    );

    api.get('/attachments', {}, ({ user }) => ({
      attachments: ownedAttachments(ctx.db, user.id).map((row) => attachmentDict(ctx.db, row)),
      upload_space_used: uploadSpaceUsed(ctx.db),
    }));

    api.delete('/attachments/:attachment_id', { ids: ['attachment_id'] }, async ({ user, ids }) => {
      const row = attachmentById(ctx.db, ids.attachment_id);
      if (!row || row.owner_id !== user.id) throw badRequest('Invalid attachment');
      deleteAttachmentRow(ctx.db, row.id);
      await storage.remove(row.path_id);
      await thumbnails.remove(row.path_id);
      await removeTusCopy(storage, row.path_id);
      announce(ctx, row.owner_id, 'remove', { id: row.id });
    });
  },
};

/** The one spooled file of an upload request, or the API's error for what was sent instead. */
function singleFile(spool: SpoolState, limitMib: number) {
  const count = spool.files.length + spool.extraFiles + (spool.tooLarge ? 1 : 0);
  if (count === 0) throw badRequest('You must specify a file to upload');
  if (count > 1) throw badRequest('You may only upload one file at a time');
  if (spool.tooLarge || spool.files.length === 0) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);
  }
  return spool.files[0];
}

/** The attachment at a path_id if the user may read it; 404 alike for missing and forbidden. */
function accessibleAttachment(ctx: RealmContext, user: AuthUser, pathId: string | undefined) {
  const row = pathId ? attachmentByPathId(ctx.db, pathId) : undefined;
  if (!row || !canUserAccessAttachment(ctx.db, user, row)) throw notFound(FILE_NOT_FOUND);
  return row;
}

function announce(
  ctx: RealmContext,
  ownerId: number,
  op: 'add' | 'remove',
  attachment: AttachmentDict | { id: number },
) {
  ctx.events.send([ownerId], {
    type: 'attachment',
    op,
    attachment,
    upload_space_used: uploadSpaceUsed(ctx.db),
  });
}
