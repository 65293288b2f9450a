#include "TrajectoryPlayer.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace pw {

TrajectoryPlayer::TrajectoryPlayer(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto button = [this, layout](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        layout->addWidget(b);
        return b;
    };
    backButton_ = button(QStyle::SP_MediaSeekBackward, tr("Previous frame"));
    playButton_ = button(QStyle::SP_MediaPlay, tr("Play / pause the trajectory"));
    forwardButton_ = button(QStyle::SP_MediaSeekForward, tr("Next frame"));
    playButton_->setObjectName(QStringLiteral("playButton"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("frameSlider"));
    slider_->setToolTip(tr("Scrub through the minimization"));
    layout->addWidget(slider_, 1);
    label_ = new QLabel(this);
    label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance(QStringLiteral("0000 / 0000")));
    layout->addWidget(label_);
    speedBox_ = new QComboBox(this);
    speedBox_->setToolTip(tr("Playback speed"));
    for (int fps : {5, 10, 25, 50, 100})
        speedBox_->addItem(tr("%1 fps").arg(fps), fps);
    speedBox_->setCurrentIndex(2);
    layout->addWidget(speedBox_);
    timer_ = new QTimer(this);

    connect(backButton_, &QToolButton::clicked, this, &TrajectoryPlayer::stepBackward);
    connect(forwardButton_, &QToolButton::clicked, this, &TrajectoryPlayer::stepForward);
    connect(playButton_, &QToolButton::clicked, this, [this] { playing() ? pause() : play(); });
    connect(slider_, &QSlider::valueChanged, this, &TrajectoryPlayer::setCurrentFrame);
    connect(timer_, &QTimer::timeout, this, &TrajectoryPlayer::tick);
    connect(speedBox_, &QComboBox::currentIndexChanged, this,
            [this] { timer_->setInterval(static_cast<int>(1000.0 / speed())); });
    timer_->setInterval(static_cast<int>(1000.0 / speed()));
    updateControls();
}

bool TrajectoryPlayer::playing() const {
    return timer_->isActive();
}

double TrajectoryPlayer::speed() const {
    return speedBox_->currentData().toDouble();
}

void TrajectoryPlayer::setFrameCount(int count) {
    pause();
    count_ = std::max(0, count);
    {
        const QSignalBlocker block(slider_);
        slider_->setRange(0, std::max(0, count_ - 1));
    }
    current_ = -1;
    setCurrentFrame(count_ - 1);
    updateControls();
}

void TrajectoryPlayer::play() {
    if (count_ < 2)
        return;
    if (current_ >= count_ - 1)
        setCurrentFrame(0); // replay from the start
    timer_->start();
    updateControls();
}

void TrajectoryPlayer::pause() {
    timer_->stop();
    updateControls();
}

void TrajectoryPlayer::stepForward() {
    pause();
    setCurrentFrame(current_ + 1);
}

void TrajectoryPlayer::stepBackward() {
    pause();
    setCurrentFrame(current_ - 1);
}

void TrajectoryPlayer::setCurrentFrame(int frame) {
    frame = std::clamp(frame, count_ > 0 ? 0 : -1, count_ - 1);
    if (frame == current_)
        return;
    current_ = frame;
    {
        const QSignalBlocker block(slider_);
        slider_->setValue(std::max(0, frame));
    }
    updateControls();
    if (frame >= 0)
        emit frameChanged(frame);
}

void TrajectoryPlayer::tick() {
    if (current_ >= count_ - 1) {
        pause();
        return;
    }
    setCurrentFrame(current_ + 1);
}

void TrajectoryPlayer::updateControls() {
    const bool any = count_ > 1;
    for (QWidget* w : {static_cast<QWidget*>(playButton_), static_cast<QWidget*>(backButton_),
                       static_cast<QWidget*>(forwardButton_), static_cast<QWidget*>(slider_)})
        w->setEnabled(any);
    playButton_->setIcon(
        style()->standardIcon(playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    label_->setText(count_ > 0 ? QStringLiteral("%1 / %2").arg(current_ + 1).arg(count_)
                               : QStringLiteral("–"));
}

} // namespace pw
