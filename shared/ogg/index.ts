export { oggCrcUpdate, oggPageCrc } from './crc32';
export {
  OggPageReader,
  OggFormatError,
  MAX_PAGE_BYTES,
  HEADER_BOS,
  HEADER_CONTINUED,
  HEADER_EOS,
  type OggPage,
} from './page-reader';
export {
  OpusIntegrityReader,
  type IncrementalHash,
  type HashFactory,
  type OpusIntegrityValues,
  type OpusReadResult,
} from './opus-integrity';
