-- Issue 12: a YouTube link's picture follows from its video id (https://i.ytimg.com/vi/<id>/hqdefault.jpg),
-- as linkThumbnailUrl in src/common/video-links.ts sets it for new links. Links saved before that get it
-- here, read from the same forms: youtu.be/ID, youtube.com/watch?v=ID (the first v), /embed/, /shorts/ and
-- /live/ID, youtube-nocookie.com/embed/ID (tests/api/link-thumbnails.test.ts compares the two).
WITH "links" AS (
  SELECT
    "id",
    regexp_replace(split_part(lower(substring("external_video_url" from '^[Hh][Tt][Tt][Pp][Ss]?://([^/?#]*)')), ':', 1), '\.$', '') AS "host",
    coalesce(substring("external_video_url" from '^[A-Za-z]+://[^/?#]*([^?#]*)'), '') AS "path",
    coalesce(substring("external_video_url" from '^[^?#]*\?([^#]*)'), '') AS "query"
  FROM "videos"
  WHERE "is_external_video" AND "thumbnail_url" IS NULL AND "external_video_url" ILIKE '%youtu%'
),
"youtube" AS (
  SELECT "id", CASE
    WHEN "host" = 'youtu.be' OR "host" LIKE '%.youtu.be'
      THEN substring("path" from '^/([A-Za-z0-9_-]{11})/?$')
    WHEN "host" = 'youtube-nocookie.com' OR "host" LIKE '%.youtube-nocookie.com'
      THEN substring("path" from '^/embed/([A-Za-z0-9_-]{11})/?$')
    WHEN ("host" = 'youtube.com' OR "host" LIKE '%.youtube.com') AND "path" ~ '^/watch/?$'
      THEN substring(substring("query" from '(?:^|&)v=([^&]*)') from '^([A-Za-z0-9_-]{11})$')
    WHEN "host" = 'youtube.com' OR "host" LIKE '%.youtube.com'
      THEN substring("path" from '^/(?:embed|shorts|live)/([A-Za-z0-9_-]{11})/?$')
  END AS "video_key"
  FROM "links"
)
UPDATE "videos" SET "thumbnail_url" = 'https://i.ytimg.com/vi/' || "youtube"."video_key" || '/hqdefault.jpg'
FROM "youtube"
WHERE "videos"."id" = "youtube"."id" AND "youtube"."video_key" IS NOT NULL;
