package media

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/rs/zerolog"
)

// S3Options say which bucket of which S3-compatible service keeps the images.
type S3Options struct {
	// Endpoint is the service's host[:port], e.g. s3.amazonaws.com or 127.0.0.1:7070.
	Endpoint string
	// Secure uses HTTPS.
	Secure bool
	// Region is the bucket's region; empty lets the client ask the service.
	Region string
	// Bucket must exist: Campus never creates or configures buckets.
	Bucket string
	// PathStyle addresses the bucket as endpoint/bucket rather than
	// bucket.endpoint, as S3-compatible servers usually need.
	PathStyle bool
	// AccessKeyID, SecretAccessKey and SessionToken sign the requests.
	AccessKeyID, SecretAccessKey, SessionToken string
}

// maxPutBuffer bounds what Put reads into memory when it is not told a size:
// a single PUT needs the length up front, and multipart uploads (which do
// not) leave parts behind when they fail. Save never writes more than
// MaxBytes; this leaves room for images kept under an older, larger limit.
const maxPutBuffer = 64 << 20

// s3Backend keeps each image as one object named by its key, at the top of
// the bucket: the keys are random, so they spread over the service's
// partitions without sharding. Every write is a single PUT, which S3 applies
// whole or not at all, so there are no temporary objects and nothing for a
// sweep to clean up.
type s3Backend struct {
	c      *minio.Client
	bucket string
}

// NewS3 opens the store in the bucket o names. It checks that the bucket
// exists and that the credentials may see it, so a misconfigured node fails
// at start rather than at its first upload.
func NewS3(ctx context.Context, o S3Options, log zerolog.Logger) (*Store, error) {
	lookup := minio.BucketLookupAuto
	if o.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(o.Endpoint, &minio.Options{
		Creds:        credentials.NewStaticV4(o.AccessKeyID, o.SecretAccessKey, o.SessionToken),
		Secure:       o.Secure,
		Region:       o.Region,
		BucketLookup: lookup,
		// The client's default, 10 tries with back-off, holds an image
		// request for many seconds when the service is down; a browser
		// retries a failed image itself.
		MaxRetries: 3,
	})
	if err != nil {
		return nil, fmt.Errorf("media: s3 client: %w", err)
	}
	ok, err := c.BucketExists(ctx, o.Bucket)
	if err != nil {
		return nil, fmt.Errorf("media: s3 bucket %q at %s: %w", o.Bucket, o.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("media: s3 bucket %q at %s does not exist", o.Bucket, o.Endpoint)
	}
	return &Store{b: &s3Backend{c: c, bucket: o.Bucket}, log: log}, nil
}

func (b *s3Backend) put(ctx context.Context, key string, r io.Reader, size int64) error {
	if size < 0 {
		data, err := io.ReadAll(io.LimitReader(ctxReader{ctx, r}, maxPutBuffer+1))
		if err != nil {
			return fmt.Errorf("media: read %q: %w", key, err)
		}
		if len(data) > maxPutBuffer {
			return fmt.Errorf("media: put %q: larger than %d bytes", key, maxPutBuffer)
		}
		r, size = bytes.NewReader(data), int64(len(data))
	}
	_, err := b.c.PutObject(ctx, b.bucket, key, r, size, minio.PutObjectOptions{
		ContentType:      byExt(strings.TrimPrefix(path.Ext(key), ".")).contentType,
		CacheControl:     "public, max-age=31536000, immutable",
		DisableMultipart: true,
		SendContentMd5:   true, // the service refuses bytes damaged on the way
	})
	if err != nil {
		return fmt.Errorf("media: s3 put: %w", err)
	}
	return nil
}

func (b *s3Backend) open(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	obj, err := b.c.GetObject(ctx, b.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, 0, fmt.Errorf("media: s3 get: %w", err)
	}
	// Stat sends the GET and waits for its headers; the body follows as
	// obj is read.
	info, err := obj.Stat()
	if err != nil {
		_ = obj.Close() // nothing was read; only the request to drop
		return nil, 0, s3Error("get", key, err)
	}
	return obj, info.Size, nil
}

func (b *s3Backend) stat(ctx context.Context, key string) (int64, error) {
	info, err := b.c.StatObject(ctx, b.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return 0, s3Error("stat", key, err)
	}
	return info.Size, nil
}

func (b *s3Backend) check(ctx context.Context) error {
	ok, err := b.c.BucketExists(ctx, b.bucket)
	if err != nil {
		return fmt.Errorf("media: s3 check: %w", err)
	}
	if !ok {
		return fmt.Errorf("media: s3 check: bucket %q does not exist", b.bucket)
	}
	return nil
}

// remove deletes key. S3 answers a delete of a missing key with success.
func (b *s3Backend) remove(ctx context.Context, key string) error {
	if err := b.c.RemoveObject(ctx, b.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("media: s3 delete: %w", err)
	}
	return nil
}

func (b *s3Backend) walk(ctx context.Context, fn func(key string, size int64) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing if fn stops the walk
	for obj := range b.c.ListObjects(ctx, b.bucket, minio.ListObjectsOptions{Recursive: true}) {
		if obj.Err != nil {
			return fmt.Errorf("media: s3 list: %w", obj.Err)
		}
		if !validKey(obj.Key) {
			continue
		}
		if err := fn(obj.Key, obj.Size); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("media: walk: %w", err)
	}
	return nil
}

// s3Error turns the service's "no such key" into fs.ErrNotExist, which is
// all callers need to know of it.
func s3Error(op, key string, err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == minio.NoSuchKey {
		return fmt.Errorf("media: s3 %s %q: %w", op, key, fs.ErrNotExist)
	}
	return fmt.Errorf("media: s3 %s %q: %w", op, key, err)
}
