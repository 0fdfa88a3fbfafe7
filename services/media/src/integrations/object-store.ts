import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { S3Settings } from '../config';

export interface ObjectInfo {
  size: number;
  etag: string;
  contentType: string;
  lastModified: Date;
}

export interface ObjectStore {
  /** Creates the bucket when it does not exist (at start; replicas may race, that is fine). */
  ensureBucket(): Promise<void>;
  ping(): Promise<boolean>;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Copies an object within the bucket; false when the source does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  /** null when there is no such object */
  stat(key: string): Promise<ObjectInfo | null>;
  /** null when there is no such object */
  open(key: string): Promise<Readable | null>;
  remove(keys: string[]): Promise<void>;
  /** Removes every object under the prefix; answers how many. */
  removePrefix(prefix: string): Promise<number>;
}

const isMissing = (err: unknown): boolean => {
  const code = (err as { code?: string } | null)?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
};

/** null when there is no such object */
const orMissing = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((err: unknown) => {
    if (isMissing(err)) return null;
    throw err;
  });

/** S3 through the minio client (MinIO locally, any S3-compatible store in production). */
export function s3ObjectStore(opts: {
  s3: S3Settings;
  bucket: string;
  region: string;
}): ObjectStore & { client: Client } {
  const client = new Client({
    endPoint: opts.s3.endPoint,
    port: opts.s3.port,
    useSSL: opts.s3.useSSL,
    accessKey: opts.s3.accessKey,
    secretKey: opts.s3.secretKey,
    region: opts.region,
  });
  const { bucket } = opts;

  return {
    client,

    async ensureBucket() {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, opts.region);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    },

    async ping() {
      try {
        return await client.bucketExists(bucket);
      } catch {
        return false;
      }
    },

    async put(key, data, contentType) {
      await client.putObject(bucket, key, data, data.length, { 'Content-Type': contentType });
    },

    async copy(from, to) {
      return (await orMissing(client.copyObject(bucket, to, `/${bucket}/${from}`))) !== null;
    },

    async stat(key) {
      const s = await orMissing(client.statObject(bucket, key));
      return (
        s && {
          size: s.size,
          etag: s.etag,
          contentType: String(s.metaData?.['content-type'] ?? 'application/octet-stream'),
          lastModified: s.lastModified,
        }
      );
    },

    open: (key) => orMissing(client.getObject(bucket, key)),

    async remove(keys) {
      if (keys.length === 0) return;
      const results = await client.removeObjects(bucket, keys);
      // a key that is already gone is fine: removal is idempotent
      const failed = results.filter((r) => r?.Error && !isMissing({ code: r.Error.Code }));
      if (failed.length > 0) {
        throw new Error(`could not remove ${failed.length} object(s): ${failed[0]?.Error?.Code}`);
      }
    },

    async removePrefix(prefix) {
      const keys: string[] = [];
      const stream = client.listObjectsV2(bucket, prefix, true);
      for await (const item of stream as AsyncIterable<{ name?: string }>) {
        if (item.name) keys.push(item.name);
      }
      for (let i = 0; i < keys.length; i += 1000) {
        await this.remove(keys.slice(i, i + 1000));
      }
      return keys.length;
    },
  };
}
