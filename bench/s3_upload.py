#!/usr/bin/env python3
"""Uploads every file below FOLDER to s3://BUCKET/PREFIX/ with boto3's transfer manager,
as `aws s3 cp --recursive` does (multipart over 8 MiB, 10 threads): the peer that
bench/remote.sh times docctl push against. Endpoint and keys from AWS_* variables.

Usage: s3_upload.py FOLDER BUCKET PREFIX"""
import os, sys
import boto3

folder, bucket, prefix = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
for directory, _, names in os.walk(folder):
    for name in names:
        path = os.path.join(directory, name)
        s3.upload_file(path, bucket, f"{prefix}/{os.path.relpath(path, folder)}")
