// Command mkimage writes Campus's container image (package
// campus/deploy/image) as one tar file; `make image` runs it. Files' times
// and the image's date come from SOURCE_DATE_EPOCH (make passes the last
// commit's), so the same inputs give the same digest.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"campus/deploy/image"
)

func main() {
	var o image.Options
	flag.StringVar(&o.Binary, "binary", "bin/campus-k8s", "the campus binary to ship (make image builds it static, with -tags k8s)")
	flag.StringVar(&o.ClientDir, "client", "client/dist", "the built client")
	flag.StringVar(&o.PostgresBin, "postgres-bin", "", "the directory holding pg_dump and pg_restore (default: the newest /usr/lib/postgresql/*/bin)")
	flag.StringVar(&o.Ref, "tag", image.DefaultRef, "the image's name, as the archive's loaders will call it")
	flag.StringVar(&o.Version, "version", "dev", "the version label (org.opencontainers.image.version)")
	flag.StringVar(&o.Revision, "revision", "", "the source revision label (org.opencontainers.image.revision)")
	out := flag.String("o", "bin/campus-image.tar", "where to write the image archive")
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	o.Created = time.Unix(0, 0).UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "image: SOURCE_DATE_EPOCH=%q: want seconds since 1970\n", s)
			os.Exit(2)
		}
		o.Created = time.Unix(n, 0).UTC()
	}
	o.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	start := time.Now()
	img, err := image.Build(o, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "image: wrote %s (%s, %s: %d layers, %.1f MB compressed, %.1f MB unpacked) in %s\n",
		*out, o.Ref, img.Digest, len(img.Layers), float64(img.CompressedSize())/1e6, float64(img.UnpackedSize())/1e6,
		time.Since(start).Round(100*time.Millisecond))
}
