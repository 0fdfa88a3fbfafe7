// The S3 side of backups and of the erasure ledger: a client from an S3_URL-style setting
// (http(s)://ACCESS_KEY:SECRET_KEY@host:port, as the media service and the launcher take it).
import { Client } from 'minio';

export interface S3Location {
  client: Client;
  /** host:port, for messages (never the credentials) */
  where: string;
}

export function s3Client(url: string, region = 'us-east-1'): S3Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('S3_URL is not a URL (http(s)://ACCESS_KEY:SECRET_KEY@host:port)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error('S3_URL must start with http:// or https://');
  if (!u.username || !u.password)
    throw new Error('S3_URL must carry credentials: http(s)://ACCESS_KEY:SECRET_KEY@host:port');
  const useSSL = u.protocol === 'https:';
  return {
    client: new Client({
      endPoint: u.hostname,
      port: u.port ? Number(u.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: decodeURIComponent(u.username),
      secretKey: decodeURIComponent(u.password),
      region,
    }),
    where: u.host,
  };
}

/** Every object of a bucket under a prefix: name, size, last change. */
export async function listObjects(
  client: Client,
  bucket: string,
  prefix = '',
  /** only the names after this one (S3 lists in name order) */
  startAfter = '',
): Promise<{ name: string; size: number; lastModified: Date }[]> {
  const out: { name: string; size: number; lastModified: Date }[] = [];
  const stream = client.listObjectsV2(bucket, prefix, true, startAfter);
  for await (const item of stream as AsyncIterable<{
    name?: string;
    size: number;
    lastModified?: Date;
  }>) {
    if (item.name)
      out.push({
        name: item.name,
        size: item.size,
        lastModified: item.lastModified ?? new Date(0),
      });
  }
  return out;
}

/** S3 says the object (or the bucket) is not there. */
export function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchBucket';
}
