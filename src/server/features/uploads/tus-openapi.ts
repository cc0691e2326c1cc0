// The tus endpoint in the OpenAPI document. Its requests are raw bytes and headers that tus.ts
// and @tus/server read themselves, not JSON Fastify validates, so it is described here by hand: the protocol
// (tus 1.0.0, creation and termination) as PickReel speaks it, with the `{ message }` errors of every route.
import { TUS_PATH } from './tus-server.js';

const MESSAGE = { $ref: '#/components/schemas/Message' };
const UPLOAD_RESULT = { $ref: '#/components/schemas/UploadResult' };

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: MESSAGE } },
});
const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });
const tusResumable = {
  name: 'Tus-Resumable',
  in: 'header',
  required: true,
  description: 'The tus version: 1.0.0 (anything else is a 412).',
  schema: { type: 'string', const: '1.0.0' },
};
const uploadId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The upload's id: 32 hexadecimal digits, from the Location of its creation.",
  schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
};
const OFFSET = header('Bytes of the file the server holds.', { type: 'integer', minimum: 0 });
const finished = {
  description:
    'The last bytes are in: the upload is a video now (its processing starts). Upload-Video-Id repeats its id.',
  headers: { 'Upload-Offset': OFFSET, 'Upload-Video-Id': header('The new video.', { type: 'integer' }) },
  content: { 'application/json': { schema: UPLOAD_RESULT } },
};
const COMMON_ERRORS = {
  '401': error('Not signed in.'),
  '404': error("No such upload, or it is someone else's."),
  '412': error('Tus-Resumable is missing or not 1.0.0.'),
  '500': error('Server error. The bytes received are kept: HEAD says where to go on.'),
};
const tags = ['Uploads'];

/** OpenAPI path items for POST /api/uploads and HEAD, PATCH, DELETE /api/uploads/{id}. */
export function tusOpenApiPaths(): Record<string, object> {
  return {
    [TUS_PATH]: {
      post: {
        tags,
        summary: 'Start a resumable upload (tus)',
        description:
          'Files above 50 MB, up to 15 GB, sent in 2 MB chunks with PATCH; resumable after a dropped connection, a reload or a restart. At most 5 unfinished uploads and 30 GB reserved per user; an unfinished upload expires after 3 days.',
        parameters: [
          tusResumable,
          {
            name: 'Upload-Length',
            in: 'header',
            required: true,
            description: "The file's size in bytes (deferred lengths are refused).",
            schema: { type: 'integer', minimum: 1, maximum: 15 * 1024 ** 3 },
          },
          {
            name: 'Upload-Metadata',
            in: 'header',
            required: true,
            description:
              "Comma-separated `key base64(value)` pairs: the upload form's fields as POST /api/videos takes them (title, description, emailInformation, price, category, duration, isPremium, isExternalVideo 'false'), plus filename and filetype. userId may be sent and is ignored: the owner is the signed-in user.",
            schema: { type: 'string' },
          },
        ],
        responses: {
          '201': {
            description: 'Created: PATCH the bytes to Location.',
            headers: {
              Location: header('The upload: /api/uploads/{id}.'),
              'Upload-Expires': header('When an unfinished upload is swept (HTTP date).'),
            },
          },
          '400': error(
            'A missing or invalid header, or metadata the upload form would refuse (the message says which).',
          ),
          '401': COMMON_ERRORS['401'],
          '403': error('Cross-site request refused.'),
          '412': COMMON_ERRORS['412'],
          '413': error('Larger than 15 GB.'),
          '429': error(
            'Too many unfinished uploads, or too many bytes reserved: finish or cancel one first.',
          ),
          '500': COMMON_ERRORS['500'],
        },
      },
    },
    [`${TUS_PATH}/{id}`]: {
      parameters: [uploadId],
      head: {
        tags,
        summary: 'Where a resumable upload stands',
        parameters: [tusResumable],
        responses: {
          '200': {
            description:
              'Upload-Offset: the bytes received; resume from there. A finished upload already taken in also names its video (Upload-Video-Id).',
            headers: {
              'Upload-Offset': OFFSET,
              'Upload-Length': header('The declared size.', { type: 'integer' }),
              'Upload-Video-Id': header('Only once the upload is a video.', { type: 'integer' }),
            },
          },
          '400': error('An invalid header.'),
          ...COMMON_ERRORS,
          '410': error('This upload has expired. Please upload the file again.'),
        },
      },
      patch: {
        tags,
        summary: 'Send the next chunk of a resumable upload',
        parameters: [
          tusResumable,
          {
            name: 'Upload-Offset',
            in: 'header',
            required: true,
            description: 'Where this chunk starts: the Upload-Offset HEAD answered (decimal digits).',
            schema: { type: 'integer', minimum: 0 },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: {
          '200': finished,
          '204': {
            description: 'Received; more to send.',
            headers: {
              'Upload-Offset': OFFSET,
              'Upload-Expires': header('When it is swept if not finished.'),
            },
          },
          '400': error(
            'The chunk was interrupted (what arrived is kept), or the finished file is refused (not a MOV, bad details).',
          ),
          '403': error('Cross-site request refused.'),
          '409': error(
            'Upload-Offset is not where the file ends (the answer carries the right one), or it is finished.',
          ),
          '413': error('The chunk goes past the upload length.'),
          '415': error('Expected application/offset+octet-stream.'),
          '423': error('Another chunk of this upload is being written: retry shortly.'),
          ...COMMON_ERRORS,
        },
      },
      delete: {
        tags,
        summary: 'Cancel a resumable upload',
        description: 'Its bytes go, and it stops counting against the per-user limits at once.',
        parameters: [tusResumable],
        responses: {
          '204': { description: 'Cancelled.' },
          '400': error('A finished upload cannot be cancelled.'),
          '403': error('Cross-site request refused.'),
          '409': error('This upload is finished already.'),
          '423': error('A chunk is being written: retry shortly.'),
          ...COMMON_ERRORS,
        },
      },
    },
  };
}
