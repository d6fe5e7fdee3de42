/** An object read back from a blob store. */
export interface StoredBlob {
  body: Uint8Array;
  contentType: string;
}

/**
 * Where screenshots and PDFs live: a folder on local disk by default, an S3-compatible bucket
 * when scaled out. Keys are opaque strings chosen by the file service.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Undefined when there is no such object. */
  get(key: string): Promise<StoredBlob | undefined>;
  /** Idempotent: deleting a missing object is not an error. True when something was removed. */
  delete(key: string): Promise<boolean>;
  /** Public URL for a key when the store serves objects itself (a public bucket); else undefined. */
  publicUrl(key: string): string | undefined;
  /** Throws when the store cannot be reached; used by /ready. */
  check(): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close?(): Promise<void>;
}

/**
 * The store could not be reached, or did not answer in time. The file service turns it into a
 * 503, so a stalled bucket gives the caller a clear answer instead of a hang or a 500.
 */
export class BlobStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreUnavailable';
  }
}
