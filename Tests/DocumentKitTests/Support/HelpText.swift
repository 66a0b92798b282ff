/// Help texts that several commands print alike, as the exact-help tests expect them.
enum HelpText {
    /// The options of every command that reaches a remote (`RemoteOptions`), at 80 columns:
    /// push, clone and pull print them alike.
    static let remoteOptions = """
          --endpoint <URL>        The S3 service's address for s3:// remotes (default:
                                  AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, endpoint_url
                                  in ~/.aws/config, else AWS).
          --timeout <SECONDS>     Seconds an S3 request may go unanswered before it is
                                  tried again (default: the remote.timeout setting,
                                  else 60).
          --retries <N>           How many times an S3 request that fails in passing
                                  (503, 500, a broken connection) is tried again
                                  (default: the remote.retries setting, else 8).
          --retry-budget <N>      How many retries all of the command's S3 requests may
                                  make together, a timeout counting as two (default:
                                  the remote.retry-budget setting, else 100).
          --jobs <N>              How many files are sent or fetched at once (default:
                                  the remote.jobs setting, else 8).
        """
}
