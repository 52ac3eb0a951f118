// The `wall` screen kind: the page a wall link opens (/wall/{token}, 大屏链接) on a television. It makes
// this tab the wall's (its session kept in the tab, session/storage.ts), opens a session from the link
// (api.login), loads the session object and shows the route the server names (数据大屏). Whenever that
// session ends later, the tab comes back here and opens the link again (request/navigation.ts). When the
// link no longer works (stopped, unknown), the server's message is the page — big, on the dark wall,
// readable from across the room — and the tab is an ordinary one again.
import { Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { OK, type Envelope } from '../../../core/codes';
import type { ScreenProps } from '../../router/screenProps';
import { enterWallMode, leaveWallMode, loadSession, setTokens } from '../../session';
import { actionCall } from '../actions/actionCall';
import '../dashboard/dashboard.css';

interface WallScreenPart {
  api: { login: string };
  /** route parameter holding the link's token (default token) */
  tokenParam?: string;
  /** shown under a refusal: what to do about it */
  note?: string;
}

interface Opened {
  accessToken: string;
  refreshToken: string;
  route: string;
}

type Outcome = { route: string } | { refused: string };

// One opening per token even when a development StrictMode runs the effect twice (a second identical
// call would be dropped as a duplicate).
let opening: { token: string; outcome: Promise<Outcome> } | null = null;

async function open(ref: string, token: string): Promise<Outcome> {
  enterWallMode(token);
  const env = (await actionCall<Opened>(ref, { token }, { inline: () => true })) as Envelope<Opened | null>;
  if (env.code !== OK || !env.data?.accessToken) {
    leaveWallMode();
    return { refused: env.msg || '大屏链接已失效' };
  }
  setTokens({ accessToken: env.data.accessToken, refreshToken: env.data.refreshToken });
  const session = await loadSession();
  if (session.code !== OK) {
    leaveWallMode();
    return { refused: session.msg || '大屏无法打开' };
  }
  return { route: env.data.route };
}

export default function WallScreen({ file }: ScreenProps) {
  const part = useMemo(() => file as unknown as WallScreenPart, [file]);
  const token = useParams()[part.tokenParam ?? 'token'] ?? '';
  const navigate = useNavigate();
  const [refused, setRefused] = useState<string | null>(null);

  useEffect(() => {
    // (while the router moves on to the wall's route this page may render once more without its token)
    if (!token) return;
    let live = true;
    if (opening?.token !== token) opening = { token, outcome: open(part.api.login, token) };
    void opening.outcome.then((o) => {
      if (!live) return;
      opening = null;
      if ('route' in o) navigate(o.route, { replace: true });
      else setRefused(o.refused);
    });
    return () => {
      live = false;
    };
  }, [part.api.login, token, navigate]);

  return (
    <div className="dash-root dash-wall-entry" data-testid="wall-entry">
      {refused ? (
        <div className="dash-wall-message" role="alert">
          <div className="dash-wall-title">{refused}</div>
          {part.note && <div className="dash-wall-note">{part.note}</div>}
        </div>
      ) : (
        <div className="dash-wall-message">
          <Spin size="large" />
          <div className="dash-wall-note">正在打开{file.title}…</div>
        </div>
      )}
    </div>
  );
}
