import type { MouseEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { Link } from 'wouter';
import { formatDollars } from '#common/money.js';
import type { TranscodingStatus, Video } from '#common/schemas/videos.js';
import { Button } from '#client/components/ui/button.tsx';
import { CardList, DataCard, DataField, ResponsiveTable } from '#client/components/ui/responsive-table.tsx';
import { useAdminVideos } from '../api/get-admin-videos';
import { AdminTable, Cell, HeaderCell, Row, StickyHeaderCell } from './admin-table';
import { AdminListPanel } from './admin-list-panel';

type VideosPanelProps = { onDelete: (video: Video, opener: HTMLElement) => void };

// The admin list includes videos that are not public yet; say so, since their page does not open.
const STATUS_LABEL: Record<Exclude<TranscodingStatus, 'ready'>, string> = {
  pending: 'Pending',
  processing: 'Processing',
  failed: 'Processing failed',
};

export function VideosPanel({ onDelete }: VideosPanelProps) {
  const list = useAdminVideos();

  return (
    <AdminListPanel
      id="admin-videos-title"
      title="Videos"
      description="Manage all videos on the platform. You can delete inappropriate or spam content."
      list={list}
      loadingLabel="Loading videos"
      errorPrefix="Failed to load videos"
      empty="No videos found"
    >
      {(videos) => (
        <ResponsiveTable
          table={
            <AdminTable caption="Videos">
              <thead>
                <tr>
                  <HeaderCell>ID</HeaderCell>
                  <HeaderCell sticky>Title</HeaderCell>
                  <HeaderCell>User ID</HeaderCell>
                  <HeaderCell className="text-right">Price</HeaderCell>
                  <HeaderCell className="text-right">Views</HeaderCell>
                  <HeaderCell>Actions</HeaderCell>
                </tr>
              </thead>
              <tbody>
                {videos.map((video) => (
                  <Row key={video.id}>
                    <Cell className="text-muted-foreground tabular-nums">{video.id}</Cell>
                    <StickyHeaderCell className="font-medium">
                      <span className="grid max-w-44 gap-0.5 sm:max-w-sm">
                        <VideoName video={video} />
                      </span>
                    </StickyHeaderCell>
                    <Cell className="tabular-nums">
                      {video.userId}
                      <span className="ml-2 text-muted-foreground">{video.capper.username}</span>
                    </Cell>
                    <Cell className="text-right tabular-nums">{formatDollars(video.price)}</Cell>
                    <Cell className="text-right tabular-nums">{video.views.toLocaleString()}</Cell>
                    <Cell>
                      <DeleteVideoButton video={video} onDelete={onDelete} />
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </AdminTable>
          }
          cards={
            <CardList label="Videos">
              {videos.map((video) => (
                <DataCard
                  key={video.id}
                  title={
                    <span className="grid gap-0.5">
                      <VideoName video={video} />
                    </span>
                  }
                  actions={<DeleteVideoButton video={video} onDelete={onDelete} />}
                >
                  <DataField label="ID" numeric>
                    {video.id}
                  </DataField>
                  <DataField label="User">
                    <span className="tabular-nums">{video.userId}</span>
                    <span className="ml-2 text-muted-foreground">{video.capper.username}</span>
                  </DataField>
                  <DataField label="Price" numeric>
                    {formatDollars(video.price)}
                  </DataField>
                  <DataField label="Views" numeric>
                    {video.views.toLocaleString()}
                  </DataField>
                </DataCard>
              ))}
            </CardList>
          }
        />
      )}
    </AdminListPanel>
  );
}

/** The title (a link once the video is public) and, until then, where its processing stands. */
function VideoName({ video }: { video: Video }) {
  return (
    <>
      {video.transcodingStatus === 'ready' ? (
        <Link
          href={`/video/${video.id}`}
          className="truncate text-foreground underline-offset-4 hover:underline"
          title={video.title}
        >
          {video.title}
        </Link>
      ) : (
        <span className="truncate" title={video.title}>
          {video.title}
        </span>
      )}
      {video.transcodingStatus !== 'ready' && (
        <span className="text-xs font-normal text-muted-foreground">
          {STATUS_LABEL[video.transcodingStatus]}
        </span>
      )}
    </>
  );
}

function DeleteVideoButton({ video, onDelete }: { video: Video } & VideosPanelProps) {
  return (
    <Button
      variant="destructive"
      size="sm"
      aria-label={`Delete video ${video.title}`}
      onClick={(event: MouseEvent<HTMLButtonElement>) => onDelete(video, event.currentTarget)}
    >
      <Trash2 aria-hidden />
      Delete
    </Button>
  );
}
