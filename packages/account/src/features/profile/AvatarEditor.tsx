import { useId, useState } from 'react';
import Cropper, { type Area, type Point } from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { Notice } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { uploadAvatar } from './upload';

/** The types the cloud accepts (it checks the content again). */
const TYPES = ['image/jpeg', 'image/png', 'image/gif'];
const MAX_BYTES = 5 * 1024 * 1024;
const OUTPUT = 512;

/** Draws the square `area` (in the image's own pixels) of `image` onto `canvas` at `size` pixels a side. */
function drawCrop(canvas: HTMLCanvasElement, image: HTMLImageElement, area: Area, size: number) {
  canvas.width = size;
  canvas.height = size;
  canvas.getContext('2d')?.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size, size);
}

function Slider({
  label,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <div className="slider">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}

/** The profile picture: pick a jpg, png or gif, crop a square, upload it with a progress bar. */
export function AvatarEditor() {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const inputId = useId();
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const hintId = useId();
  // The crop with react-easy-crop: drag (or arrow keys on the focused circle) to move, the slider or pinch to zoom.
  const [crop, setCrop] = useState<Point>({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

  const pick = (file: File | undefined) => {
    setMessage(null);
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      setMessage({ kind: 'error', text: strings.profile.wrongType });
      return;
    }
    if (file.size > MAX_BYTES) {
      setMessage({ kind: 'error', text: strings.profile.tooLarge });
      return;
    }
    const url = URL.createObjectURL(file);
    const loaded = new Image();
    loaded.onload = () => {
      setCrop({ x: 0, y: 0 });
      setZoom(1);
      setArea(null);
      setImage(loaded);
    };
    loaded.onerror = () => setMessage({ kind: 'error', text: strings.profile.unreadable });
    loaded.src = url;
  };

  const save = async () => {
    if (!image || !area) return;
    const canvas = document.createElement('canvas');
    drawCrop(canvas, image, area, OUTPUT);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) return;
    setProgress(0);
    try {
      await uploadAvatar(cloud, user._id, blob, setProgress);
      setProgress(1);
      setImage(null);
      setMessage({ kind: 'success', text: strings.profile.pictureSaved });
      await reloadUser();
    } catch (error) {
      setMessage({ kind: 'error', text: messageOf(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section className="card" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading">{strings.profile.picture}</h2>
      <div className="avatar-row">
        {user.avatar ? (
          <img className="avatar" src={user.avatar.medium} alt={strings.profile.pictureAlt} width={96} height={96} />
        ) : (
          <span className="avatar avatar--initials" aria-hidden="true">
            {(user.firstname[0] ?? user.email[0] ?? '?').toUpperCase()}
          </span>
        )}
        <div>
          <input
            id={inputId}
            className="visually-hidden file-input"
            type="file"
            accept={TYPES.join(',')}
            onChange={(event) => pick(event.target.files?.[0])}
          />
          <label htmlFor={inputId} className="button">
            {strings.profile.choose}
          </label>
          <p className="hint">{strings.profile.pictureHint}</p>
        </div>
      </div>
      {image ? (
        <div className="crop">
          <p className="hint" id={hintId}>
            {strings.profile.cropHint}
          </p>
          <div className="crop__area">
            <Cropper
              image={image.src}
              crop={crop}
              zoom={zoom}
              maxZoom={4}
              aspect={1}
              cropShape="round"
              showGrid={false}
              keyboardStep={8}
              disableAutomaticStylesInjection
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_percentages, pixels) => setArea(pixels)}
              mediaProps={{ alt: '' }}
              cropperProps={{
                role: 'group',
                'aria-label': strings.profile.cropArea,
                'aria-describedby': hintId,
              }}
            />
          </div>
          <Slider label={strings.profile.zoom} value={zoom} min={1} max={4} step={0.1} onChange={setZoom} />
          <div className="actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => void save()}
              disabled={progress !== null || !area}
            >
              {strings.profile.savePicture}
            </button>
            <button type="button" className="button" onClick={() => setImage(null)}>
              {strings.common.cancel}
            </button>
          </div>
        </div>
      ) : null}
      {progress !== null ? (
        <label className="progress">
          {strings.profile.uploading}
          <progress max={1} value={progress} />
        </label>
      ) : null}
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
    </section>
  );
}
