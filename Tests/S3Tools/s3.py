#!/usr/bin/env python3
"""boto3, the AWS SDK for Python, as the tests' second S3 client: it sets up the test
servers (moto's user, buckets) and reads and writes remotes beside docctl, to show that
what docctl writes is plain S3 to another client and that it reads what another wrote.
The endpoint and keys come from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY.

Usage: s3.py COMMAND ARGUMENT...
  make-user                    moto: an IAM user allowed every S3 action; prints its key id and secret
  make-bucket BUCKET           creates BUCKET
  remove-buckets SUFFIX        removes every bucket whose name ends with SUFFIX, with its objects
                               and unfinished uploads
  download BUCKET PREFIX DIR   every object below PREFIX/ into DIR, at its key less PREFIX/, as
                               `aws s3 cp --recursive` does; prints each key, one a line
  upload DIR BUCKET PREFIX     every file below DIR to PREFIX/ and its path, one upload_file each"""
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config

# Checksums only where S3 requires them: boto3 since 1.36 adds a CRC32 trailer to every
# upload (aws-chunked encoding), which servers older than that change, radosgw 16 among
# them, refuse. docctl sends none either.
config = Config(request_checksum_calculation="when_required", response_checksum_validation="when_required")


def client(service="s3"):
    return boto3.client(service, region_name=os.environ.get("AWS_REGION", "us-east-1"), config=config)


def make_user():
    iam = client("iam")
    iam.create_user(UserName="pusher")
    iam.put_user_policy(UserName="pusher", PolicyName="s3", PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    key = iam.create_access_key(UserName="pusher")["AccessKey"]
    print(key["AccessKeyId"], key["SecretAccessKey"])


def remove_buckets(suffix):
    s3 = client()
    for bucket in s3.list_buckets().get("Buckets", []):
        name = bucket["Name"]
        if not name.endswith(suffix):
            continue
        for page in s3.get_paginator("list_multipart_uploads").paginate(Bucket=name):
            for upload in page.get("Uploads", []):
                s3.abort_multipart_upload(Bucket=name, Key=upload["Key"], UploadId=upload["UploadId"])
        # One DeleteObject a key: boto3's DeleteObjects sends a CRC32 where radosgw 16
        # wants Content-MD5, and refuses it.
        keys = [item["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=name) for item in page.get("Contents", [])]
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda key: s3.delete_object(Bucket=name, Key=key), keys))
        s3.delete_bucket(Bucket=name)


def download(bucket, prefix, folder):
    s3 = client()
    below = prefix + "/" if prefix else ""
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=below):
        for item in page.get("Contents", []):
            path = os.path.join(folder, item["Key"][len(below):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            s3.download_file(bucket, item["Key"], path)
            print(item["Key"])


def upload(folder, bucket, prefix):
    s3 = client()
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(directory, name)
            key = os.path.relpath(path, folder)
            s3.upload_file(path, bucket, f"{prefix}/{key}" if prefix else key)


commands = {"make-user": make_user, "make-bucket": lambda bucket: client().create_bucket(Bucket=bucket),
            "remove-buckets": remove_buckets, "download": download, "upload": upload}
if len(sys.argv) < 2 or sys.argv[1] not in commands:
    sys.exit(__doc__)
commands[sys.argv[1]](*sys.argv[2:])
