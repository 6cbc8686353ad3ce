package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The media types of an OCI image (image-spec v1.1).
const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
)

// descriptor points at a blob (image-spec's content descriptor).
type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Platform    *platform         `json:"platform,omitempty"`
}

type platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

type index struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Manifests     []descriptor `json:"manifests"`
}

type manifest struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Config        descriptor   `json:"config"`
	Layers        []descriptor `json:"layers"`
}

// imageConfig is the image's configuration blob: how a runtime starts it.
type imageConfig struct {
	Created      string         `json:"created"`
	Architecture string         `json:"architecture"`
	OS           string         `json:"os"`
	Config       runtimeConfig  `json:"config"`
	RootFS       rootFS         `json:"rootfs"`
	History      []historyEntry `json:"history"`
}

type runtimeConfig struct {
	User         string              `json:"User"`
	ExposedPorts map[string]struct{} `json:"ExposedPorts"`
	Env          []string            `json:"Env"`
	Entrypoint   []string            `json:"Entrypoint"`
	Cmd          []string            `json:"Cmd"`
	WorkingDir   string              `json:"WorkingDir"`
	Labels       map[string]string   `json:"Labels"`
	StopSignal   string              `json:"StopSignal"`
}

type rootFS struct {
	Type    string   `json:"type"`
	DiffIDs []string `json:"diff_ids"`
}

type historyEntry struct {
	Created   string `json:"created"`
	CreatedBy string `json:"created_by"`
}

// dockerManifest is one image of a `docker save` archive's manifest.json.
type dockerManifest struct {
	Config   string   `json:"Config"`
	RepoTags []string `json:"RepoTags"`
	Layers   []string `json:"Layers"`
}

// layer is a built layer: its compressed bytes and both digests.
type layer struct {
	name     string
	gz       []byte
	digest   string // of the compressed bytes: the blob's name
	diffID   string // of the uncompressed tar: the config's rootfs entry
	unpacked int64
}

// Image is what Build wrote.
type Image struct {
	Digest string // the manifest's digest: the image's identity
	Layers []layer
}

// CompressedSize is what a registry stores and a node pulls.
func (img Image) CompressedSize() int64 {
	var n int64
	for _, l := range img.Layers {
		n += int64(len(l.gz))
	}
	return n
}

// UnpackedSize is what the image takes on a node's disk.
func (img Image) UnpackedSize() int64 {
	var n int64
	for _, l := range img.Layers {
		n += l.unpacked
	}
	return n
}

// Build assembles the image o describes and writes its archive to out.
func Build(o Options, out string) (Image, error) {
	specs, err := rootfs(o)
	if err != nil {
		return Image{}, err
	}
	var img Image
	for _, s := range specs {
		l, err := buildLayer(s, o.Created)
		if err != nil {
			return Image{}, fmt.Errorf("layer %q: %w", s.name, err)
		}
		if o.Log != nil {
			o.Log("image: layer %-80s %7.1f MB", s.name, float64(len(l.gz))/1e6)
		}
		img.Layers = append(img.Layers, l)
	}
	created := o.Created.Format(time.RFC3339)
	cfg := imageConfig{
		Created:      created,
		Architecture: runtime.GOARCH,
		OS:           "linux",
		Config: runtimeConfig{
			User: fmt.Sprintf("%d:%d", UID, GID),
			ExposedPorts: map[string]struct{}{
				strconv.Itoa(HTTPPort) + "/tcp":     {},
				strconv.Itoa(RemotingPort) + "/tcp": {},
			},
			Env: []string{
				"PATH=/usr/bin",
				"CAMPUS_CLIENT_DIR=" + ClientDir,
				"CAMPUS_DATA_DIR=" + DataDir,
				"CAMPUS_ADDR=:" + strconv.Itoa(HTTPPort),
			},
			Entrypoint: []string{BinaryPath},
			Cmd:        []string{"serve"},
			WorkingDir: DataDir,
			Labels: map[string]string{
				"org.opencontainers.image.title":       "campus",
				"org.opencontainers.image.description": "Campus, a realtime social network for a university: one node (DATABASE_URL required)",
				"org.opencontainers.image.version":     o.Version,
				"org.opencontainers.image.revision":    o.Revision,
				"org.opencontainers.image.created":     created,
			},
			StopSignal: "SIGTERM",
		},
		RootFS: rootFS{Type: "layers"},
	}
	for k, v := range cfg.Config.Labels {
		if v == "" {
			delete(cfg.Config.Labels, k)
		}
	}
	for _, l := range img.Layers {
		cfg.RootFS.DiffIDs = append(cfg.RootFS.DiffIDs, l.diffID)
		cfg.History = append(cfg.History, historyEntry{Created: created, CreatedBy: "deploy/image: " + l.name})
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return Image{}, err
	}
	man := manifest{SchemaVersion: 2, MediaType: mediaManifest, Config: blobDescriptor(mediaConfig, cfgJSON)}
	for _, l := range img.Layers {
		man.Layers = append(man.Layers, descriptor{MediaType: mediaLayer, Digest: l.digest, Size: int64(len(l.gz))})
	}
	manJSON, err := json.Marshal(man)
	if err != nil {
		return Image{}, err
	}
	manDesc := blobDescriptor(mediaManifest, manJSON)
	img.Digest = manDesc.Digest
	name, tag := splitRef(o.Ref)
	manDesc.Annotations = map[string]string{
		// containerd (ctr import, kind, k3s) names the image by the first,
		// podman and skopeo by the second.
		"io.containerd.image.name":          fullName(name) + ":" + tag,
		"org.opencontainers.image.ref.name": tag,
	}
	manDesc.Platform = &platform{Architecture: runtime.GOARCH, OS: "linux"}
	idxJSON, err := json.Marshal(index{SchemaVersion: 2, MediaType: mediaIndex, Manifests: []descriptor{manDesc}})
	if err != nil {
		return Image{}, err
	}
	dm := []dockerManifest{{Config: blobPath(man.Config.Digest), RepoTags: []string{name + ":" + tag}}}
	for _, l := range img.Layers {
		dm[0].Layers = append(dm[0].Layers, blobPath(l.digest))
	}
	dmJSON, err := json.Marshal(dm)
	if err != nil {
		return Image{}, err
	}

	files := []archiveFile{
		{"oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{"index.json", idxJSON},
		{"manifest.json", dmJSON},
		{blobPath(man.Config.Digest), cfgJSON},
		{blobPath(manDesc.Digest), manJSON},
	}
	for _, l := range img.Layers {
		files = append(files, archiveFile{blobPath(l.digest), l.gz})
	}
	if err := writeArchive(out, files, o.Created); err != nil {
		return Image{}, err
	}
	return img, nil
}

// buildLayer writes one layer's entries as a gzip-compressed tar.
func buildLayer(s layerSpec, mtime time.Time) (layer, error) {
	var gzBuf bytes.Buffer
	gzHash := sha256.New()
	gz, err := gzip.NewWriterLevel(io.MultiWriter(&gzBuf, gzHash), gzip.DefaultCompression)
	if err != nil {
		return layer{}, err
	}
	tarHash := sha256.New()
	counter := &countWriter{}
	tw := tar.NewWriter(io.MultiWriter(gz, tarHash, counter))
	for _, e := range s.entries {
		if err := writeEntry(tw, e, mtime); err != nil {
			return layer{}, fmt.Errorf("%s: %w", e.path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return layer{}, err
	}
	if err := gz.Close(); err != nil {
		return layer{}, err
	}
	return layer{
		name:     s.name,
		gz:       gzBuf.Bytes(),
		digest:   "sha256:" + hex.EncodeToString(gzHash.Sum(nil)),
		diffID:   "sha256:" + hex.EncodeToString(tarHash.Sum(nil)),
		unpacked: counter.n,
	}, nil
}

func writeEntry(tw *tar.Writer, e entry, mtime time.Time) error {
	h := &tar.Header{
		Name:    strings.TrimPrefix(e.path, "/"),
		Mode:    int64(e.mode.Perm()),
		Uid:     e.uid,
		Gid:     e.gid,
		ModTime: mtime,
		Format:  tar.FormatPAX,
	}
	if e.mode&os.ModeSticky != 0 {
		h.Mode |= 0o1000
	}
	switch {
	case e.isDir():
		h.Typeflag = tar.TypeDir
		h.Name += "/"
		return tw.WriteHeader(h)
	case e.mode&os.ModeSymlink != 0:
		h.Typeflag = tar.TypeSymlink
		h.Linkname = e.link
		return tw.WriteHeader(h)
	}
	h.Typeflag = tar.TypeReg
	data := e.data
	if e.src != "" {
		var err error
		if data, err = os.ReadFile(e.src); err != nil {
			return err
		}
	}
	h.Size = int64(len(data))
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

type archiveFile struct {
	name string
	data []byte
}

// writeArchive writes files into the tar at out, through a temporary file
// so that a failed build leaves no half archive behind.
func writeArchive(out string, files []archiveFile, mtime time.Time) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".campus-image-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	tw := tar.NewWriter(tmp)
	dirs := map[string]bool{}
	sort.SliceStable(files, func(i, j int) bool { return files[i].name < files[j].name })
	for _, f := range files {
		for d := filepath.Dir(f.name); d != "."; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	var dirList []string
	for d := range dirs {
		dirList = append(dirList, d)
	}
	sort.Strings(dirList)

	for _, d := range dirList {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: 0o644, Size: int64(len(f.data)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}

func blobDescriptor(mediaType string, data []byte) descriptor {
	sum := sha256.Sum256(data)
	return descriptor{MediaType: mediaType, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))}
}

func blobPath(digest string) string {
	return "blobs/" + strings.Replace(digest, ":", "/", 1)
}

// splitRef splits "name:tag" (the tag defaults to latest). A registry's
// port ("registry:5000/campus") is not a tag.
func splitRef(ref string) (name, tag string) {
	i := strings.LastIndexByte(ref, ':')
	if i < 0 || strings.Contains(ref[i:], "/") {
		return ref, "latest"
	}
	return ref[:i], ref[i+1:]
}

// fullName is name as containerd spells it: a name without a registry is
// Docker Hub's, in its library namespace.
func fullName(name string) string {
	first, _, hasSlash := strings.Cut(name, "/")
	if hasSlash && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return name
	}
	if !hasSlash {
		return "docker.io/library/" + name
	}
	return "docker.io/" + name
}
