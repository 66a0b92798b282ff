#!/usr/bin/env python3
"""Uploads every file below FOLDER to s3://BUCKET/PREFIX/ with boto3's transfer manager and
its defaults, as `aws s3 cp --recursive` does (every file submitted at once, up to 10
requests at a time, multipart over 8 MiB in 8 MiB parts): the peer that bench/remote.sh
times docctl push against. Endpoint and keys from AWS_* variables.

Usage: s3_upload.py FOLDER BUCKET PREFIX"""
import os, sys
import boto3
from boto3.s3.transfer import TransferConfig
from s3transfer.manager import TransferManager

folder, bucket, prefix = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
config = TransferConfig()
with TransferManager(s3, config) as manager:
    futures = []
    for directory, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(directory, name)
            futures.append(manager.upload(path, bucket, f"{prefix}/{os.path.relpath(path, folder)}"))
    for future in futures:
        future.result()
