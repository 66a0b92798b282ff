#!/usr/bin/env python3
"""Deletes every object below s3://BUCKET/PREFIX/ (creating the bucket when missing), so
that each timed push of bench/remote.sh starts from an empty remote.

Usage: s3_clear.py BUCKET PREFIX"""
import os, sys
import boto3

bucket, prefix = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
if bucket not in [b["Name"] for b in s3.list_buckets()["Buckets"]]:
    s3.create_bucket(Bucket=bucket)
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
    keys = [{"Key": item["Key"]} for item in page.get("Contents", [])]
    if keys:
        s3.delete_objects(Bucket=bucket, Delete={"Objects": keys})
