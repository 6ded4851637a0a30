import { useEffect, useState } from 'react';
import { useServices } from '../../../app/services';
import { StepFrame } from '../../../components/StepFrame';
import { COMMUNITY_URL } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { Article } from '../../../types/entities';
import type { StepProps } from '../../form/context';
import { getArticles } from '../api/getArticle';

/** "This might help you.": the articles of the last choice, then a way on (support, developer or community). */
export function KnowledgeBaseStep({ answer, collected, status, reveal, proceed }: StepProps) {
  const services = useServices();
  const [articles, setArticles] = useState<Article[] | null>(null);
  const ids = collected.articles.join(',');
  useEffect(() => {
    let live = true;
    setArticles(null);
    getArticles(services.getArticle, ids ? ids.split(',') : []).then((list) => live && setArticles(list));
    return () => {
      live = false;
    };
  }, [ids, services]);

  const definition = texts.steps[answer.step];
  const next = answer.remaining[0];
  const continued = answer.value !== null;
  return (
    <StepFrame
      stepName={answer.step}
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
      loading={articles === null}
    >
      {collected.appOutOfDate && collected.appId ? (
        <p className="warning" role="alert">
          {texts.appOutOfDate}{' '}
          <a href={services.appPageUrl(collected.appId)} target="_blank" rel="noopener noreferrer">
            Update the app
          </a>
        </p>
      ) : null}
      {articles && articles.length > 0 ? (
        <ul className="articles">
          {articles.map((article) => (
            <li key={article.id}>
              <a href={article.html_url} target="_blank" rel="noopener noreferrer">
                {article.name}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {next === 'community' ? (
        <div className="community-card">
          <h3>{texts.stillNotFound}</h3>
          <p>
            Other Hearth users know a lot about this topic. Visit the{' '}
            <a href={COMMUNITY_URL} target="_blank" rel="noopener noreferrer">
              Hearth community forum
            </a>{' '}
            or ask your question there.
          </p>
          <button type="button" className="button" onClick={proceed} aria-pressed={continued}>
            Ask the community
          </button>
        </div>
      ) : next ? (
        <div className="still-not-found">
          <h3>{texts.stillNotFound}</h3>
          {/* Named by where it leads: Hearth's support team, or the app's developer. */}
          <button type="button" className="button button--primary" onClick={proceed} aria-pressed={continued}>
            {next === 'contactDeveloper' ? texts.contactDeveloper : texts.contactSupport}
          </button>
        </div>
      ) : null}
    </StepFrame>
  );
}
